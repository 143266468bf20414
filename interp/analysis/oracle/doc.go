// Package oracle is sieve's differential oracle. It compares the trace of a
// test run (one plan, one injected fault) with the traces of the fault-free
// reference runs and returns findings:
//
//   - the end state of every object (present in one run only; field values,
//     compared recursively: lists by their merge keys where Kubernetes
//     defines them — the k8s.io/api types' patchMergeKey, a CRD schema's
//     x-kubernetes-list-map-keys, "conditions" by type — so that order alone
//     is no difference, and a finding names the element by key,
//     status.conditions[type=Ready].status; sets of scalars in any order;
//     other lists by index; an empty map or list, or null, equals an absent
//     field; an object being deleted in one run only is one finding that
//     says so, not a difference in metadata.deletionGracePeriodSeconds);
//   - per-object counts of creations and deletions over the run, which catch
//     transient deletions that the end state hides (a difference complete
//     before the plan's first fault is nondeterminism, not a finding);
//   - objects whose names differ from run to run (metadata.generateName,
//     a uid in the name, a ControllerRevision's template hash, an IP
//     address), folded to kind/namespace/prefix* and compared by count;
//   - invariants (CEL, through lang/celenv, compiled once) over the
//     sequence of cluster states — always, never or eventually true, over
//     the whole run or between two workload steps — and on the end state;
//   - controller panics and crashes the plan did not cause, workload step
//     failures and timeouts, and runs that never finished.
//
// Convergence before judgement: Converge names the objects of a plan run
// that differ from the reference's end state when the run settles (nil
// when none does, or none is of a kind the controller writes, so that no
// repair can come); the pipeline keeps the run going while the controller
// may repair them, feeding later history entries to Observe, which
// rechecks those objects only. The end state judged is the run's last;
// Transient reports the differences that were there when the run settled
// (the trace's converge mark) and were repaired since, not as findings.
//
// Masks (the standard library's, the spec's and the learned ones) and the
// controller's own objects (its pod, its lease) are left out. Learn derives
// masks from what differs between two or more reference runs; the oracle
// applies them to every comparison, and FormatMask renders them for a .sieve
// file. CheckReference reports what is wrong with a reference run on its own.
//
// It returns findings only: it does not run anything, read files, judge a
// plan's run (interp/pipeline does) or name files of the results directory
// (interp/formats/results' Layout fills in a finding's reproduce command).
package oracle
