// Package oracle is sieve's differential oracle. It compares the trace of
// a test run (one plan, one injected fault) with the traces of the
// fault-free reference runs and returns findings. It compares:
//
//   - the end state of every object: present in one run only, or field
//     values compared recursively. Lists are matched by their merge keys
//     where Kubernetes defines them (the k8s.io/api types' patchMergeKey,
//     a CRD schema's x-kubernetes-list-map-keys, "conditions" by type).
//     So order alone is no difference, and a finding names the element by
//     key: status.conditions[type=Ready].status. Sets of scalars compare
//     in any order, other lists by index. An empty map or list, or null,
//     equals an absent field. An object being deleted in one run only is
//     one finding that says so, not a difference in its metadata.
//   - per-object counts of creations and deletions over the run. They
//     catch transient deletions that the end state hides. A difference
//     complete before the plan's first fault is nondeterminism, not a
//     finding.
//   - objects whose names differ from run to run (metadata.generateName,
//     a uid in the name, a ControllerRevision's template hash, an IP
//     address). They are folded to kind/namespace/prefix* and compared by
//     count.
//   - invariants (CEL, through lang/celenv, compiled once) over the
//     sequence of cluster states and on the end state. An invariant is
//     always, never or eventually true, over the whole run or between two
//     workload steps.
//   - controller panics and crashes that the plan did not cause, workload
//     step failures and timeouts, and runs that never finished.
//
// Convergence comes before judgement. Converge names the objects of a plan
// run that differ from the reference's end state when the run settles. It
// returns nil when none does, or none is of a kind the controller writes,
// since then no repair can come. The pipeline keeps the run going while
// the controller may repair them, and feeds later history entries to
// Observe, which rechecks those objects only. The end state judged is the
// run's last. Transient reports the differences that were there when the
// run settled (the trace's converge mark) and were repaired since; they
// are not findings.
//
// Masks (the standard library's, the spec's and the learned ones) and the
// controller's own objects (its pod, its lease) are left out, and so are
// objects an earlier run on the same control plane left behind: a child
// whose owner reference names an object the history holds only under
// other UIDs (the StatefulSet controller's pod for a StatefulSet that the
// reset had just deleted). Learn
// derives masks from what differs between two or more reference runs. The
// oracle applies them to every comparison, and FormatMask renders them
// for a .sieve file. CheckReference reports what is wrong with a reference
// run on its own.
//
// CheckExplored judges an explored run (lang/explore's workload: one
// merge patch and a settle per operation) on its own trace, with no
// reference: consistency (an operation that changed the resource left a
// trace in an object the controller owns, a field carrying the new value
// or an obvious rendering of it, or a problem in the resource's status),
// rollback (an operation that brings the resource's spec back to an
// earlier one brings the controller's objects back too, under the masks)
// and health (no crash or panic, no request failing past a bound within
// one operation, every settle quiet). CheckDifferential is the
// differential oracle of an explored run: the end state of a run that
// applied the explored resource's final state at once, compared with the
// reference's, which reached it by the operations.
//
// It returns findings only. It does not run anything, read files or judge
// a plan's run (interp/pipeline does). It does not name files of the
// results directory: the pipeline fills in a finding's reproduce command
// from interp/formats/results' Layout.
package oracle
