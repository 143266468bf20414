// std/faults: one default fault policy per pattern, and one with all five.
//
//   import "std/faults"
//   test t { ... policies [faults.all] }
//
// Every policy keeps all pruning passes on (the checker's default) and
// leaves out Events and leader-election locks (lease/*/* matches ConfigMap
// and Endpoints locks too), a log and a heartbeat rather than state.

// intermediate crashes the controller right after each distinct write it
// makes, before it sees the response (Sieve's intermediate-state pattern).
policy intermediate {
  patterns [intermediate]
  exclude  [event/*/*, lease/*/*]
}

// stale restarts the controller against a view of the cluster frozen at an
// earlier revision, then lets time catch up once the controller has read
// the frozen object and been quiet for a second, or after stale_for at the
// latest (Sieve's stale-state pattern, "time travel"). Sieve kept the view
// stale for 20s because its controllers restarted as pods; a process
// restarted by sieve lists and reconciles within a second, so 5s is ample
// for the controller that never goes quiet.
policy stale {
  patterns  [stale]
  exclude   [event/*/*, lease/*/*]
  stale_for 5s
}

// unobserved hides a watch event from the controller until the event that
// cancels it arrives, so it never sees that state (Sieve's unobserved-state
// pattern).
policy unobserved {
  patterns [unobserved]
  exclude  [event/*/*, lease/*/*]
}

// apierror answers each distinct write of the controller once with an
// error a real API server gives, in place of the server's answer: a 409
// Conflict, and a 500 InternalError (api_errors names others: a 429 with
// Retry-After, a timeout with the write applied or not, and gone, a watch
// closed with 410 after an event). The controller's error paths run, which
// most tests never reach.
policy apierror {
  patterns [apierror]
  exclude  [event/*/*, lease/*/*]
}

// appfault answers each distinct call of the controller to its
// application once wrongly, in the application's place: an exec into a
// pod exits 1 with a line on stderr; an HTTP request to a stand-in is
// answered 503, its connection reset, or its answer cut short; either
// gets the answer the reference gave it just before, where that changed
// (hang is asked for by name: app_faults [hang]). A controller that calls
// no application makes no plan of it.
policy appfault {
  patterns [appfault]
}

// all is the five patterns together. apierror and appfault joined the
// three of Sieve once they raised no false alarm on the examples' fixed
// tests nor on the built-in StatefulSet controller (specs/README.md).
policy all {
  patterns  [intermediate, stale, unobserved, apierror, appfault]
  exclude   [event/*/*, lease/*/*]
  stale_for 5s
}
