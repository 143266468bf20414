package pipeline_test

import (
	"testing"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/run/session/sessiontest"
	"github.com/sievetool/sieve/lang/ir"
)

// shared is the embedded control plane the tests of this package share;
// each test resets it first.
var shared sessiontest.Shared

func TestMain(m *testing.M) { sessiontest.Main(m, &shared) }

// specFile holds the relay controller's tests, which this package's tests
// share with interp/run/session's.
const specFile = "../run/session/testdata/relay.sieve"

// ns is the namespace of every test of specFile.
const ns = "e2e"

// cluster returns the shared cluster, reset to its state after start
// (sessiontest.Shared.Cluster).
func cluster(t *testing.T) *embedded.Cluster { return shared.Cluster(t) }

// loadTest compiles test name of specFile.
func loadTest(t *testing.T, name string) *ir.Test { return sessiontest.LoadTest(t, specFile, name) }

func ref(kind, name string) *ir.Ref { return &ir.Ref{Kind: kind, Namespace: ns, Name: name} }
