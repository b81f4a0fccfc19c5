// Package archtest holds one test: that every package of the module imports
// only what docs/architecture.md's package map allows (the floors, the pure
// core's lack of I/O, which driver may reach which package). It has no
// code of its own and must not be imported.
package archtest
