// Package observe is the observation library that plan generation
// (interp/analysis/plan) and the trigger engine (interp/analysis/trigger, driven by
// interp/run/inject) share, so that a generated trigger matches at injection
// exactly the change it was made from: the Tracker that follows a trace
// entry by entry (the normalised object, the slim diff against the state
// before, the signature and its occurrence, per stream), slim diffs and
// fragment containment, the masks both apply (BuiltinMask plus the test's
// masks), state hashes, owner references, and matching spec references
// (globs) against keys.
//
// It does not define plans (interp/formats/planfile), generate them (interp/analysis/plan),
// decide when actions fire (interp/analysis/trigger), compile masks
// (interp/analysis/mask) or read traces (interp/formats/trace).
package observe
