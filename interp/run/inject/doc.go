// Package inject executes a test plan during a run. It feeds what the
// proxy and the history watch see to the plan's trigger engine
// (interp/analysis/trigger), and carries out each action as it fires:
//
//   - SIGKILL after a write, before the controller gets the answer;
//   - a stale view of a scope, followed by a restart;
//   - holding watch events (up to a bound), then delivering only the
//     newest;
//   - pausing the controller (SIGSTOP, up to a bound) until a later
//     trigger resumes it;
//   - answering a write or a read with an API error in the API server's place, or
//     ending a watch with 410 Expired after an event (gone);
//   - answering a call of the controller to its application (Call)
//     wrongly, in the application's place (the run gives the answer:
//     podexec, relay).
//
// It records every action that fired.
//
// It also tells the run whether the controller it killed is still
// restarting (Restarting), so that its silence is not taken for quiet.
// Neither is the silence of a controller that waits for a leader-election
// lock (the proxy's Activity.LockWait). A hold that has stalled while the
// workload waits is lifted early, after Stall of stillness. It is lifted
// earlier still, after the Quiet bound, once the proxy's evidence says
// that the controller and the cluster are done (proxy.Settled).
//
// It does not decide when actions fire (the trigger engine does) or judge
// the run (interp/analysis/oracle). It does not generate plans
// (interp/analysis/plan): it imports only the plan format
// (interp/formats/planfile) and the observation library
// (interp/analysis/observe).
package inject
