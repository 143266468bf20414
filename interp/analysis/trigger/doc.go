// Package trigger is the trigger engine. It is given a plan, the stream of
// observations that an injection run makes, and the passing of time. The
// observations are watch events on their way to the controller, the
// cluster history, the controller's requests with their results, and its
// calls to its application as they are about to be answered (Call) and,
// for a plan with a call leaf that counts changes of an answer, once
// answered, with their answers (Answered). The
// engine decides when each of the plan's actions fires, and records
// whether and when each one did. A plan with an action that never fired
// was not injected.
//
// The engine is synchronous. The caller (interp/run/inject) hands it each
// observation at the moment the fault could be injected. For a write, that
// is after the API server answered and before the answer is forwarded; for
// a watch event, before it is delivered; for a call, before it is
// answered, or once the application answered it and before the
// controller has the answer (Answered); for a write an error answers, and for a read, before it is
// sent (Send). The caller carries out the
// actions it returns before going on. The engine computes diffs with observe.Tracker, as
// generation did, so a generated trigger matches exactly the change it was
// made from. It reads plans in their file format (interp/formats/planfile)
// and does not depend on the generator (interp/analysis/plan).
//
// Replay feeds it a recorded trace instead, as a run would have shown it:
// the plan generator asks where a spec's plan would fire in the reference
// run (to take a stale answer from there).
//
// It does not carry out actions (interp/run/inject does) and does not know
// about processes, proxies or clusters.
package trigger
