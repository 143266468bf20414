package syntax

// The productions that let a workload or a plan hold a race open: a fixed
// delay, a wait that may time out, a bound on a hold, and a stale view
// frozen at an earlier event. They are kept apart from the other step and
// action rules.

// Sleep pauses the workload for Duration.
type Sleep struct {
	Span
	Duration *Expr `parser:"'sleep' @@"`
}

// Else says what a wait does when it times out: "continue" goes on with
// the next step (the outcome is recorded) instead of failing the workload.
type Else struct {
	Span
	Continue bool `parser:"'else' @'continue'"`
}

// HoldFor bounds how long a hold keeps events back when the event that
// cancels them does not come.
type HoldFor struct {
	Span
	Duration *Expr `parser:"'for' @@"`
}

// StaleAt names the earlier event whose revision a stale view shows.
type StaleAt struct {
	Span
	Event *Event `parser:"'at' @@"`
}

func (*Sleep) step() {}
