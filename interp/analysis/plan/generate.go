package plan

import (
	"fmt"
	"time"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// Options tune generation. The zero value is the default.
type Options struct {
	// MaxOccurrence is the highest occurrence of one signature that the
	// duplicates pass keeps. Default 3, as in Sieve.
	MaxOccurrence int
	// StaleFor is how long a stale view lasts at most when the policy
	// does not say. Default 5s.
	StaleFor time.Duration
	// StaleQuiet ends a stale view early: once the restarted controller
	// has read the frozen objects and then been quiet this long, it has
	// acted on what it saw. Default 1s.
	StaleQuiet time.Duration
	// Masks replaces the masks compiled from the test (see observe.Masks).
	Masks *mask.Matcher
	// MaxCandidates bounds the candidates one pattern of one policy makes
	// before pruning: past it, Generate fails and says how to raise it
	// (stale pairs every delete with every event before it, so a long
	// trace makes candidates by the million). Default
	// DefaultMaxCandidates.
	MaxCandidates int
	// Others are the test's other reference runs, evidence only: plans
	// are made from the trace given to Generate, and a stale pair is
	// dropped when another run shows its delete made after its state had
	// been replaced (see generator.refuted).
	Others []*trace.Trace
}

// DefaultMaxCandidates is the default of Options.MaxCandidates: the
// stale pairs of a trace of some 8,000 entries. BenchmarkGenerateSizes
// measures the time and memory their pruning takes.
const DefaultMaxCandidates = 500_000

// withDefaults fills in the defaults.
func (o Options) withDefaults() Options {
	if o.MaxOccurrence <= 0 {
		o.MaxOccurrence = 3
	}
	if o.StaleFor <= 0 {
		o.StaleFor = 5 * time.Second
	}
	if o.StaleQuiet <= 0 {
		o.StaleQuiet = time.Second
	}
	if o.MaxCandidates <= 0 {
		o.MaxCandidates = DefaultMaxCandidates
	}
	return o
}

// generator holds what one Generate call shares across patterns.
type generator struct {
	tr     *trace.Trace // the reference trace (the calls to the application: appCalls)
	masks  *mask.Matcher
	ix     *index
	others []*index // the other reference runs (Options.Others)
	test   *ir.Test
	opts   Options
	acted  map[*item]bool
	// lastOfKind is the sequence number of the last delivery of each
	// kind (followed).
	lastOfKind map[string]int64
	// ops are the explored operations of the trace (Set.Operations),
	// none for a test that explores nothing.
	ops []*operation
}

// Generate makes the plans for test t from its reference trace tr: for each
// policy, for each pattern it asks for, the candidates, pruned pass by pass
// and counted; then the test's own plans. Plans with the same name (the
// same actions) are kept once.
func Generate(tr *trace.Trace, t *ir.Test, opts Options) (*Set, error) {
	if tr == nil || t == nil {
		return nil, fmt.Errorf("plan: generate: no trace or no test")
	}
	opts = opts.withDefaults()
	m := opts.Masks
	if m == nil {
		var err error
		if m, err = observe.Masks(t); err != nil {
			return nil, err
		}
	}
	g := &generator{tr: tr, masks: m, ix: newIndex(tr, m), test: t, opts: opts}
	for _, o := range opts.Others {
		g.others = append(g.others, newIndex(o, m))
	}
	g.ops = g.operations()
	set := &Set{}
	set.Operations, set.stretches = g.exported()
	for _, pol := range t.Policies {
		for _, pat := range pol.Patterns {
			plans, count, cands, err := g.pattern(pol, pat)
			if err != nil {
				return nil, err
			}
			set.Plans = append(set.Plans, plans...)
			set.Counts = append(set.Counts, count)
			set.Candidates = append(set.Candidates, cands...)
		}
	}
	if err := g.userPlans(set); err != nil {
		return nil, err
	}
	set.Plans = dedupe(set.Plans)
	return set, nil
}

// pattern generates and prunes the plans of one pattern for one policy,
// and says what became of each candidate. Candidates that make the same
// plan (the same actions, so the same name) give it once: Final counts
// distinct plans.
func (g *generator) pattern(pol *ir.Policy, pat ir.Pattern) ([]*planfile.Plan, Count, []Candidate, error) {
	var all []*candidate
	var passes []pass
	switch pat {
	case ir.Intermediate:
		all, passes = g.intermediate(pol)
	case ir.Stale:
		if n := g.stalePairs(); n > g.opts.MaxCandidates {
			return nil, Count{}, nil, tooMany(pol, pat, n, g.opts.MaxCandidates)
		}
		all, passes = g.stale(pol)
	case ir.Unobserved:
		all, passes = g.unobserved(pol)
	case ir.APIError:
		all, passes = g.apiError(pol)
	case ir.AppFault:
		all, passes = g.appFault(pol)
	default:
		return nil, Count{}, nil, fmt.Errorf("plan: policy %s: unknown pattern %q (want intermediate, stale, unobserved, apierror or appfault)", pol.Name, pat)
	}
	if len(g.ops) > 0 {
		passes = append(passes, g.mergedPass())
	}
	if len(all) > g.opts.MaxCandidates {
		return nil, Count{}, nil, tooMany(pol, pat, len(all), g.opts.MaxCandidates)
	}
	count := Count{Policy: pol.Name, Pattern: pat, Baseline: len(all)}
	cands := runPasses(all, passes, &count)
	plans := make([]*planfile.Plan, 0, len(cands))
	names := map[*candidate]string{}
	for _, c := range cands {
		p := c.build()
		p.Format, p.Test, p.Pattern, p.Policy = planfile.Version, g.test.Name, pat, pol.Name
		p.Src = srcString(pol.Src)
		p.SetName(c.slug)
		plans = append(plans, p)
		names[c] = p.Name
	}
	plans = sample(dedupe(plans), cands, names, pol.MaxPlans, &count)
	count.Final = len(plans)
	if count.Final == 0 {
		count.NoPlans = g.noPlans(pat, count)
	}
	records := make([]Candidate, len(all))
	for i, c := range all {
		name := names[c]
		if c.dropped != "" {
			name = ""
		}
		records[i] = c.record(pol, pat, name)
	}
	return plans, count, records, nil
}

// tooMany is the error of a pattern that makes more than max candidates.
func tooMany(pol *ir.Policy, pat ir.Pattern, n, max int) error {
	return fmt.Errorf("plan: policy %s: %s: %d candidates before pruning, more than the limit of %d (raise it with --max-candidates, or shorten the test's workload)", pol.Name, pat, n, max)
}

// dedupe keeps the first plan of each name.
func dedupe(plans []*planfile.Plan) []*planfile.Plan {
	seen := map[string]bool{}
	out := plans[:0]
	for _, p := range plans {
		if !seen[p.Name] {
			seen[p.Name] = true
			out = append(out, p)
		}
	}
	return out
}

// why describes an item for a plan's Why list.
func why(role string, it *item) planfile.Why {
	w := planfile.Why{
		Role: role, Seq: it.seq(), Key: it.Key.String(), Verb: it.Verb,
		Subresource: it.Subresource, Revision: it.Entry.ResourceVersion,
		Diff: it.Diff, Occurrence: it.Occurrence,
	}
	if it.Stream == observe.Written {
		w.Code = it.Entry.Code
	} else {
		w.State = observe.StateHash(it.Object)
	}
	if w.Diff.Empty() {
		w.Diff = nil
	}
	return w
}

// ref turns a key into an exact reference.
func ref(k trace.Key) *ir.Ref {
	return &ir.Ref{Kind: k.Kind, Namespace: k.Namespace, Name: k.Name}
}

// leaf returns the trigger that matches exactly the change it was made
// from: same stream, verb, object and diff, at the same occurrence.
func leaf(it *item) *planfile.Trigger {
	t := &planfile.Trigger{On: it.Verb, Target: ref(it.Key), Subresource: it.Subresource, Count: it.Occurrence}
	switch it.Stream {
	case observe.Written:
		t.Op, t.Failed = ir.TrigWrite, !it.OK()
	case observe.Cluster:
		t.Op, t.Seen = ir.TrigEvent, planfile.SeenCluster
	default:
		t.Op = ir.TrigEvent
	}
	if !it.Diff.Empty() || it.Verb == "update" || it.Verb == "patch" {
		t.Diff = it.Diff
	}
	return t
}

// sentLeaf returns the trigger that matches write w as the controller
// sends it, before the API server has seen it: its verb, object and diff
// as sent (the request body against the controller's view), at the same
// occurrence (observe.Tracker.Sent).
func sentLeaf(w *item) *planfile.Trigger {
	s := w.sent
	t := &planfile.Trigger{Op: ir.TrigWrite, Sent: true, On: s.Verb, Target: ref(s.Key), Subresource: s.Subresource, Count: s.Occurrence}
	if !s.Diff.Empty() || s.Verb == "update" || s.Verb == "patch" {
		t.Diff = s.Diff
	}
	return t
}

// srcString formats a spec range's start as file:line:col, or "" when it
// names no line.
func srcString(r diag.Range) string {
	if !r.IsValid() {
		return ""
	}
	return r.String()
}
