// Package sievetest runs sieve specs from go test.
//
//	func TestVolresize(t *testing.T) {
//		sievetest.Run(t, "testdata/volresize.sieve", sievetest.Test("fixed"))
//	}
//
// Run does what sieve run does for the spec's tests, through the same
// stages (interp/pipeline). It records the fault-free reference runs,
// generates and prunes the plans, runs each with its fault injected and
// compares the run with the references. Each plan is a subtest named by
// the plan's name, exactly as sieve prints it. Plan names use only
// lowercase letters, digits, dots and dashes, which go test does not
// rewrite. So
//
//	go test -run 'TestVolresize/intermediate-.*'
//
// runs only the intermediate-state plans; the reference runs are made in
// any case.
//
// A test whose workloads explore (explore steps) gets the Explore stage
// too, as in sieve run, before its plans: the subtests explored (the
// first reference run judged by the explored-run oracles) and
// explored-direct (the differential run), each judged as a plan is.
//
// A plan whose run found something fails with each finding. It names the
// object, the field, its values in the reference and in the test run, the
// `sieve reproduce` command and the `go test -run` line that runs the plan
// alone. A plan whose fault never fired is skipped with the reason. A plan
// whose run could not be done fails saying so. With -short only the
// reference runs are made and every plan is skipped. A spec that does not
// check fails the test with sieve check's file:line:col diagnostics, and
// so does a fault-free run that fails.
//
// Options set what sieve run's flags set: Test, Include, Pattern,
// Parallel, MaxPlans, Confirm, NoCache, Kind and Kubeconfig. Results go to
// a temporary directory, removed when the test passes and named in the
// log when it fails. Out or the test binary's -sieve.out flag (go test
// -args -sieve.out DIR) keeps them instead, one directory per Go test.
// sieve report, sieve reproduce and sieve run's other tools read it.
//
// The embedded control plane is found as sieve finds it: in
// $SIEVE_CONTROLPLANE, next to the test binary, on PATH, or in the user
// cache. sieve setup puts it in the cache; otherwise the first test builds
// it. A package whose TestMain calls Main shares its control planes
// between its tests. They start when a test first needs them and stop
// after the last test. Without Main, each Run stops the control planes it
// started when it ends. A test binary that dies takes its control planes
// with it, since they watch their parent. Main also runs the helper that
// starts a controller in-cluster or in a private network. Specs whose
// controller runs in-cluster need it; without it, controllers share the
// host's network.
//
// It owns the go test face of sieve. What the stages do is
// interp/pipeline's, and the results directory's layout
// interp/formats/results'.
package sievetest
