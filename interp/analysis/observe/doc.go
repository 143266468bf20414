// Package observe is the observation library that plan generation
// (interp/analysis/plan) and the trigger engine (interp/analysis/trigger,
// driven by interp/run/inject) share. Sharing it means a generated trigger
// matches at injection exactly the change it was made from.
//
// It owns the Tracker, which follows a trace entry by entry. Per stream,
// it gives the normalised object, the slim diff against the state before,
// and the signature and its occurrence. The package also owns:
//
//   - slim diffs and fragment containment (SlimDiff, Contains);
//   - the masks that both sides apply (BuiltinMask plus the test's: Masks);
//   - state hashes (StateHash) and owner references (Owners,
//     ControllingOwner);
//   - matching spec references (globs) against keys (MatchRef, MatchKey);
//   - the controller's calls to its application, read from a trace or
//     made from the call about to be answered, and matched against call
//     leaves (Call, CallOf, MatchCall), and their answers as a stale
//     answer gives them again, and whether one changed (AnswerOf,
//     HTTPAnswer, ExecAnswer, AnswerChanged);
//   - the controller's reads (gets, lists) as read leaves match them
//     (ReadLeaf, MatchRead).
//
// It does not define plans (interp/formats/planfile), generate them
// (interp/analysis/plan), decide when actions fire
// (interp/analysis/trigger), compile masks (interp/analysis/mask) or read
// traces (interp/formats/trace).
package observe
