// Package bridge is the live side of specbridge: the websocket server the
// java-shim in each MapReduce ApplicationMaster connects to. It speaks the
// versioned protocol in PROTOCOL.md, keeps one session and one
// speculators.Engine per job, feeds the engine the AM's events, asks it for
// decisions every decide interval and right after each event batch, and sends
// them back to the AM to apply and acknowledge.
//
// The bridge owns the network, the clock and the limits (authentication,
// frame size, session count, event rate, strikes for abusive clients); the
// engine it drives stays pure. Nothing a client sends may crash the process
// or affect another session: every client error becomes an error frame, and
// only repeated abuse closes that client's own connection.
package bridge
