package sievetest_test

import (
	"testing"

	"github.com/sievetool/sieve/sievetest"
)

// A controller's tests run a spec with Run: here its test "fixed", with
// at most ten of its plans. go test -run 'TestVolresize/intermediate-.*'
// runs only the intermediate-state plans; go test -short only the
// reference runs.
func ExampleRun() {
	TestVolresize := func(t *testing.T) {
		sievetest.Run(t, "testdata/volresize.sieve", sievetest.Test("fixed"), sievetest.MaxPlans(10))
	}
	_ = TestVolresize
}

// A package whose TestMain calls Main shares its control planes between
// its tests, and stops them after the last one.
func ExampleMain() {
	TestMain := func(m *testing.M) { sievetest.Main(m) }
	_ = TestMain
}
