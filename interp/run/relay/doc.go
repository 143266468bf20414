// Package relay relays a connection of the controller to a stand-in and
// records it in the run's trace: a connection entry when it arrives and
// one when both ends are done (the bytes each way, and whether it ended
// in order, by a reset, by sieve closing it or by an error), and, when
// the first bytes the controller sends are an HTTP/1.x request line, an
// http entry per exchange (method, target, status, header names, body
// excerpts), keep-alive and pipelined requests included.
//
// The bytes are relayed as they come, unchanged; a reset of one end is
// passed on as a reset of the other. The HTTP record is parsed from a
// copy, which the relay hands over without ever waiting for the parser
// (a tap): a slow or confused parser cannot delay or change what the
// controller receives. An exchange's entry is written once its response
// is parsed, a moment after its last byte was relayed.
//
// A Recorder's Fault hook, when set, is asked about each HTTP request
// before it is forwarded, and may have the relay answer it wrongly in the
// stand-in's place (a 503, a reset before any response, no answer until
// the controller gives up or a bound passes, or the stand-in's response
// with half its body: Fault); the requests are then forwarded one at a
// time, as parsed, and the responses relayed as they come but for the
// one a truncated answer cuts, which is read whole first. A Recorder's
// Answered hook, when set, has every response read whole before the
// controller gets it (with a Content-Length, interim responses dropped):
// the hook is told each, and may have the relay give another reply in
// its place (a stale answer keyed to a change of the answer).
//
// It does not listen nor dial (package standin does) and knows nothing
// of pods or Services: the caller names the stand-in in trace.Conn.
package relay
