package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// interspersed moves a subcommand's flags that follow its positional
// arguments in front of them, so `specbridge replay trace.yaml --runs 5`
// means what `specbridge replay --runs 5 trace.yaml` means. urfave/cli v2
// stops parsing flags at the first positional argument and would otherwise
// take "--runs" and "5" as two more inputs (or, worse, ignore them for a
// command that reads only some of its arguments). Only flags the subcommand
// declares move; a flag that takes a value moves with the token after it
// unless written as --flag=value; "--" ends flag parsing as usual, and global
// flags in front of the subcommand are left where they are.
func interspersed(app *cli.App, args []string) []string {
	// Find the subcommand: the first token after the program name that is
	// not a global flag (or a global flag's value).
	global := flagTable(app.Flags)
	i := 1
	for i < len(args) {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			break
		}
		takesValue, ok := global[flagName(a)]
		i++
		if ok && takesValue && !strings.Contains(a, "=") {
			i++
		}
	}
	if i >= len(args) {
		return args
	}
	cmd := app.Command(args[i])
	if cmd == nil {
		return args
	}
	// A command with subcommands (train laser, docs policies): the flags
	// are the subcommand's.
	for len(cmd.Subcommands) > 0 && i+1 < len(args) {
		sub := cmd.Command(args[i+1])
		if sub == nil {
			break
		}
		cmd = sub
		i++
	}
	local := flagTable(cmd.Flags)
	var flags, positional []string
	rest := args[i+1:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if a == "--" {
			positional = append(positional, rest[j:]...)
			break
		}
		takesValue, ok := local[flagName(a)]
		if !strings.HasPrefix(a, "-") || a == "-" || !ok {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		if takesValue && !strings.Contains(a, "=") {
			if j+1 == len(rest) {
				// The last token wants a value it does not have: parsed
				// alone, it is the usage error "--runs needs a value",
				// where moved in front it would take an INPUT as its value.
				return append(append([]string{}, args[:i+1]...), a)
			}
			j++
			flags = append(flags, rest[j])
		}
	}
	out := append([]string{}, args[:i+1]...)
	for _, f := range flags {
		if n := flagName(f); n == "help" || n == "h" {
			// Help wherever it stands, and nothing else: inputs after it
			// would otherwise be read as a help topic.
			return append(out, "--help")
		}
	}
	out = append(out, flags...)
	return append(out, positional...)
}

// flagTable maps every name and alias of flags to whether the flag takes a
// value (everything but a bool flag does).
func flagTable(flags []cli.Flag) map[string]bool {
	// --help and -h are every command's, though not in its Flags until
	// urfave/cli adds them: moved in front, they print help wherever they
	// stand and nothing runs.
	t := map[string]bool{"help": false, "h": false}
	for _, f := range flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			t[n] = !isBool
		}
	}
	return t
}

// flagName strips leading dashes and any "=value" from a flag token.
func flagName(tok string) string {
	n := strings.TrimLeft(tok, "-")
	if k := strings.IndexByte(n, '='); k >= 0 {
		n = n[:k]
	}
	return n
}
