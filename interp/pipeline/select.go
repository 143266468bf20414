package pipeline

import (
	"fmt"
	"slices"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/internal/runlabel"
	"github.com/sievetool/sieve/lang/ir"
)

// ExplorePattern selects the results of the Explore stage alone
// (results.ExplorePattern): no fault plan.
const ExplorePattern = ir.Pattern(results.ExplorePattern)

// CheckPattern says what is wrong with the pattern a Selection keeps
// (--pattern): none (""), a generated pattern, planfile.User, or
// ExplorePattern.
func CheckPattern(p ir.Pattern) error {
	switch p {
	case "", ir.Intermediate, ir.Stale, ir.Unobserved, ir.APIError, ir.AppFault, planfile.User, ExplorePattern:
		return nil
	}
	return fmt.Errorf("unknown pattern %q (want intermediate, stale, unobserved, apierror, appfault, user or explore)", p)
}

// MaskSet is a test's masks, for each of their uses.
type MaskSet struct {
	// Plan is what plan generation and the trigger engine compare objects
	// through (observe.Masks).
	Plan *mask.Matcher
	// Oracle is what the oracle compares runs through: ClusterMask and the
	// test's masks. The oracle adds those it learns from the reference
	// runs (Oracle.Learned).
	Oracle []*ir.Mask
}

// Masks gathers the masks of test t for each of their uses: the plan
// matcher from observe.Masks, which owns it, and the oracle's masks.
func Masks(t *ir.Test) (MaskSet, error) {
	m, err := observe.Masks(t)
	if err != nil {
		return MaskSet{}, err
	}
	return MaskSet{Plan: m, Oracle: append([]*ir.Mask{ClusterMask()}, t.Masks...)}, nil
}

// ClusterMask masks what differs between two control planes whatever the
// test does: the cluster's CA in the kube-root-ca.crt config maps and the
// authentication config map, the API server's lease and port, and the
// day the API server started tracking legacy service-account tokens; on a
// cluster sieve does not own, the runs that use a CRD (runlabel.Users:
// other runs come and go).
// Reference runs recorded on another control plane (from the cache, by
// sieve reproduce, or on the first worker of several), or on another day,
// would otherwise differ from every test run there.
func ClusterMask() *ir.Mask {
	ref := func(kind, ns, name string) ir.Ref { return ir.Ref{Kind: kind, Namespace: ns, Name: name} }
	return &ir.Mask{
		Name: "cluster",
		Rules: []*ir.MaskRule{
			{Target: ref("configmap", "*", "kube-root-ca.crt"), Path: `data."ca.crt"`},
			{Target: ref("configmap", "kube-system", "extension-apiserver-authentication"), Whole: true},
			{Target: ref("lease", "kube-system", "apiserver-*"), Whole: true},
			{Target: ref("service", "default", "kubernetes"), Path: "spec.ports.*.targetPort"},
			{Target: ref("configmap", "kube-system", "kube-apiserver-legacy-service-account-token-tracking"), Path: "data.since"},
			{Target: ref("*", "*", "*"), Path: ir.Path{ir.FieldElem("metadata"), ir.FieldElem("annotations"), ir.FieldElem(runlabel.Users)}.String()},
		},
	}
}

// Selection chooses the plans to run among those a test's policies ask
// for. The zero value keeps them all.
type Selection struct {
	// Pattern, if not empty, asks only for plans of this pattern
	// (--pattern): the test is narrowed to it before generation, so the
	// counts and candidates are of this pattern only. ExplorePattern asks
	// for no plan, and only it or none for the Explore stage's results.
	Pattern ir.Pattern
	// Shard keeps only the plans of one part (the zero value: all).
	Shard Shard
	// MaxPlans caps the plans, chosen by content (plan.Sample), after
	// Shard. If 0, there is no cap.
	MaxPlans int
	// MaxCandidates bounds the candidates of one pattern before pruning
	// (--max-candidates, plan.Options.MaxCandidates). If 0,
	// plan.DefaultMaxCandidates.
	MaxCandidates int
}

// Explores reports whether the selection keeps the Explore stage's
// results: with no pattern, or ExplorePattern.
func (s Selection) Explores() bool { return s.Pattern == "" || s.Pattern == ExplorePattern }

// Plans is the second stage: it generates the plans of test t from its
// reference traces refs (from the first; the others are evidence, see
// plan.Options.Others) and keeps those sel selects. The set's candidates
// say what became of each, the selection included; its plans are those
// to run.
func Plans(env Env, t *ir.Test, refs []*trace.Trace, sel Selection) (*plan.Set, error) {
	if len(refs) == 0 {
		return nil, fmt.Errorf("pipeline: plans: no reference trace")
	}
	masks, err := Masks(t)
	if err != nil {
		return nil, err
	}
	set, err := plan.Generate(refs[0], onlyPattern(t, sel.Pattern), plan.Options{Masks: masks.Plan, Others: refs[1:], MaxCandidates: sel.MaxCandidates})
	if err != nil {
		return nil, err
	}
	if sel.Shard.Of > 1 {
		all := len(set.Plans)
		set.Plans = sel.Shard.Keep(set.Plans)
		env.progressf("shard %s: %d of %d plans", sel.Shard, len(set.Plans), all)
		plan.MarkUnchosen(set.Candidates, set.Plans, "shard", "in another part than --shard "+sel.Shard.String())
	}
	if sel.MaxPlans > 0 && len(set.Plans) > sel.MaxPlans {
		set.Plans = plan.Sample(set.Plans, sel.MaxPlans)
		plan.MarkUnchosen(set.Candidates, set.Plans, "max-plans", fmt.Sprintf("not among the %d plans sampled (--max-plans)", sel.MaxPlans))
	}
	return set, nil
}

// onlyPattern returns a copy of t that asks only for pattern p (all when
// p is empty).
func onlyPattern(t *ir.Test, p ir.Pattern) *ir.Test {
	if p == "" {
		return t
	}
	c := *t
	c.Policies = nil
	if p != planfile.User {
		c.Plans = nil
		for _, pol := range t.Policies {
			if slices.Contains(pol.Patterns, p) {
				pc := *pol
				pc.Patterns = []ir.Pattern{p}
				c.Policies = append(c.Policies, &pc)
			}
		}
	}
	return &c
}
