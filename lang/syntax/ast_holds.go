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
// cancels them does not come, or how long a pause stops the controller
// when no resume comes.
type HoldFor struct {
	Span
	Duration *Expr `parser:"'for' @@"`
}

// PauseController stops the controller's processes where they are, for
// at most For, until a later ResumeController lets them go on: the
// controller is paused between two events.
type PauseController struct {
	Span
	Pause bool     `parser:"@'pause'"`
	For   *HoldFor `parser:"@@?"`
}

// ResumeController lets a paused controller go on.
type ResumeController struct {
	Span
	Resume bool `parser:"@'resume'"`
}

// StaleAt names the earlier event whose revision a stale view shows.
type StaleAt struct {
	Span
	Event *Event `parser:"'at' @@"`
}

// LeafOpt narrows an event or write leaf to the very change a generated
// plan was made from. It names a subresource, or the cluster history
// rather than the controller's watch (in cluster). It can name the change
// itself (changing PREV to CUR: the fields before and after, as the
// plan's diff has them), or a change after which the object no longer
// holds a fragment (without).
type LeafOpt struct {
	Span
	Subresource *Ident  `parser:"  'subresource' @@"`
	Cluster     bool    `parser:"| @'in' 'cluster'"`
	Prev        *Object `parser:"| 'changing' @@"`
	Cur         *Object `parser:"  'to' @@"`
	Without     *Object `parser:"| 'without' @@"`
}

// Quiet fires once the controller has read Target and then been quiet
// (no request, no event, its latest write not failed) for Duration.
type Quiet struct {
	Span
	Duration *Expr `parser:"'quiet' 'for' @@"`
	Target   *Expr `parser:"'after' 'reading' @@"`
}

func (*Sleep) step() {}

func (*PauseController) action()  {}
func (*ResumeController) action() {}
