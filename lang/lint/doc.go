// Package lint reports what a compiled spec asks for but cannot get,
// whichever front end compiled it; lang/load calls it on the IR. Lint
// reports fields that waits, invariants, trigger conditions and an
// apply's sets select and their kind's schema does not have (built-in
// kinds from lang/kinds; custom resources from their CRD), and fault
// patterns that the workloads give nothing to start from. UnknownKinds
// warns about applied objects of kinds neither built in nor defined by the
// test's CRDs; OlderAPIs refuses CRD files and applied objects written in
// an API version that only an older Kubernetes line serves, in a test on
// the default line. Schemas gives an editor the fields of kinds from the
// same schemas the field lint reads.
//
// It does not parse, check or lower a spec (lang/syntax, lang/check,
// lang/cuefront do) and does not run anything.
package lint
