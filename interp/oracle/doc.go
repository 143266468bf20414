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
//   - invariants (CEL, through lang/celenv, compiled once) on every state of
//     the cluster history and on the end state;
//   - controller panics and crashes the plan did not cause, workload step
//     failures and timeouts, and runs that never finished.
//
// Masks (the standard library's, the spec's and the learned ones) and the
// controller's own objects (its pod, its lease) are left out. Learn derives
// masks from what differs between two or more reference runs; the oracle
// applies them to every comparison, and FormatMask renders them for a .sieve
// file. CheckReference reports what is wrong with a reference run on its own.
//
// It returns findings only: it does not run anything, read files, judge a
// plan's run (interp/pipeline does) or name files of the results directory
// (interp/report's Layout fills in a finding's reproduce command).
package oracle
