package pipeline

import (
	"testing"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// selectTest asks for every pattern of a datastore trace.
func selectTest() *ir.Test {
	return &ir.Test{Name: "buggy", Policies: []*ir.Policy{{
		Name: "all", Patterns: []ir.Pattern{ir.Intermediate, ir.Stale, ir.Unobserved}, Prune: ir.DefaultPrune,
	}}}
}

// TestPlansSelection holds the Plans stage to its selection: --pattern
// narrows generation (counts and candidates of that pattern only), and
// --shard and --max-plans keep part of the plans and mark the others'
// candidates with the selection that dropped them.
func TestPlansSelection(t *testing.T) {
	tr, err := trace.Read("../analysis/plan/testdata/datastore.trace.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	all, err := Plans(Env{}, selectTest(), []*trace.Trace{tr}, Selection{})
	if err != nil {
		t.Fatal(err)
	}
	stale, err := Plans(Env{}, selectTest(), []*trace.Trace{tr}, Selection{Pattern: ir.Stale})
	if err != nil {
		t.Fatal(err)
	}
	if len(stale.Plans) == 0 || len(stale.Counts) != 1 || len(stale.Plans) >= len(all.Plans) {
		t.Fatalf("--pattern stale: %d plans, %d count rows (all patterns: %d plans)", len(stale.Plans), len(stale.Counts), len(all.Plans))
	}
	for _, c := range stale.Candidates {
		if c.Pattern != ir.Stale {
			t.Errorf("--pattern stale kept a %s candidate", c.Pattern)
		}
	}
	some, err := Plans(Env{}, selectTest(), []*trace.Trace{tr}, Selection{Shard: Shard{Index: 1, Of: 2}, MaxPlans: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(some.Plans) != 2 {
		t.Fatalf("--shard 1/2 --max-plans 2: %d plans", len(some.Plans))
	}
	passes := map[string]int{}
	for _, c := range some.Candidates {
		passes[c.Pass]++
	}
	if passes["shard"] == 0 || passes["max-plans"] == 0 {
		t.Errorf("candidates dropped by the selection: %v, want shard and max-plans", passes)
	}
}

// TestMaskSet holds a test's masks for each use to what Masks assembles:
// the oracle's start with the cluster mask, then the test's.
func TestMaskSet(t *testing.T) {
	test := &ir.Test{Masks: []*ir.Mask{{Name: "own", Rules: []*ir.MaskRule{{Target: ir.Ref{Kind: "pod", Namespace: "*", Name: "*"}, Whole: true}}}}}
	m, err := Masks(test)
	if err != nil {
		t.Fatal(err)
	}
	if m.Plan == nil || len(m.Oracle) != 2 || m.Oracle[0].Name != ClusterMask().Name || m.Oracle[1] != test.Masks[0] {
		t.Errorf("masks: %+v", m)
	}
	if observe.BuiltinMask().Name == "" {
		t.Error("the built-in plan mask has no name")
	}
}

// TestClusterMaskCovers: what differs between two control planes, or two
// days, is masked, and the rest of the same objects is not.
func TestClusterMaskCovers(t *testing.T) {
	set, err := mask.Compile([]*ir.Mask{ClusterMask()})
	if err != nil {
		t.Fatal(err)
	}
	m := set.For(ir.OracleAll)
	tracking := trace.Key{Kind: "configmap", Namespace: "kube-system", Name: "kube-apiserver-legacy-service-account-token-tracking"}
	for _, c := range []struct {
		key    trace.Key
		path   string
		masked bool
	}{
		{tracking, "data.since", true},
		{tracking, "data.other", false},
		{trace.Key{Kind: "configmap", Namespace: "default", Name: "kube-root-ca.crt"}, `data."ca.crt"`, true},
		{trace.Key{Kind: "configmap", Namespace: "default", Name: "app"}, "data.since", false},
		{trace.Key{Kind: "customresourcedefinition", Name: "gadgets.x"}, `metadata.annotations."sieve.dev/users"`, true},
		{trace.Key{Kind: "customresourcedefinition", Name: "gadgets.x"}, `metadata.annotations.other`, false},
	} {
		p, err := ir.ParsePath(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Masked(c.key, p); got != c.masked {
			t.Errorf("%s %s: masked %v, want %v", c.key, c.path, got, c.masked)
		}
	}
}

// TestSelectionExplores holds which selections keep the Explore stage's
// results: none asked for, or explore's; a fault pattern's keeps its
// plans only.
func TestSelectionExplores(t *testing.T) {
	for p, want := range map[ir.Pattern]bool{"": true, ExplorePattern: true, ir.Stale: false, planfile.User: false} {
		if got := (Selection{Pattern: p}).Explores(); got != want {
			t.Errorf("pattern %q: Explores() = %v, want %v", p, got, want)
		}
	}
	if err := CheckPattern(ExplorePattern); err != nil {
		t.Errorf("CheckPattern(explore): %v", err)
	}
}
