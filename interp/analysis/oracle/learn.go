package oracle

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// Learn returns the masks that make two or more reference runs agree. It
// makes a path rule (list indices as "*") for each field whose end value
// differs, and a whole-object end-state rule for each object present at
// the end of some runs only. It makes a whole-object history rule for each
// object whose creation or deletion count differs. Generated names are
// learned as kind/ns/prefix*, and so are names that end in a
// random-looking suffix (see nameGlob), so that the rules hold for the
// next run. What opts.Masks
// already masks is not learned again, and objects opts.Own accepts are
// left out. The rules are sorted.
func Learn(refs []*trace.Trace, opts Options) ([]*ir.MaskRule, error) {
	own := ownPredicate(opts)
	runs := make([]*run, len(refs))
	for i, t := range refs {
		r, err := replay(t, own)
		if err != nil {
			return nil, fmt.Errorf("oracle: reference %d: %w", i+1, err)
		}
		runs[i] = r
	}
	return learnRuns(runs, opts.Masks, newListKeys(runs[0]))
}

// learnRuns learns from replayed runs, comparing each with the first;
// keys says how their lists compare.
func learnRuns(runs []*run, masks []*ir.Mask, keys *listKeys) ([]*ir.MaskRule, error) {
	set, err := mask.Compile(masks)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	l := &learner{end: set.For(ir.OracleEnd), hist: set.For(ir.OracleHistory), keys: keys, seen: map[string]bool{}}
	for _, r := range runs[1:] {
		l.endState(runs[0], r)
		l.counts(runs[0], r)
		l.folded(runs[0], r)
	}
	rules := mergeWhole(l.rules)
	sortRules(rules)
	return rules, nil
}

// mergeWhole replaces a pair of whole-object rules for the end-state and
// the history oracle on one target by a single rule for every oracle.
func mergeWhole(rs []*ir.MaskRule) []*ir.MaskRule {
	whole := map[ir.Ref]int{}
	for _, r := range rs {
		if r.Whole {
			whole[r.Target]++
		}
	}
	var out []*ir.MaskRule
	for _, r := range rs {
		switch {
		case !r.Whole || whole[r.Target] < 2:
			out = append(out, r)
		case r.Oracle == ir.OracleEnd:
			out = append(out, &ir.MaskRule{Target: r.Target, Whole: true})
		}
	}
	return out
}

// learner accumulates learned rules without duplicates.
type learner struct {
	end, hist *mask.Matcher
	keys      *listKeys
	rules     []*ir.MaskRule
	seen      map[string]bool
}

func (l *learner) add(r *ir.MaskRule) {
	id := fmt.Sprintf("%s|%s|%s|%v", r.Target, r.Oracle, r.Path, r.Whole)
	if !l.seen[id] {
		l.seen[id] = true
		l.rules = append(l.rules, r)
	}
}

// refOf is the target of a rule learned on object k: its name with a
// random-looking suffix as a glob (see nameGlob), so that the rule holds
// for the next run too.
func refOf(k trace.Key) ir.Ref {
	return ir.Ref{Kind: k.Kind, Namespace: k.Namespace, Name: nameGlob(k.Name)}
}

// nameGlob returns name with a suffix that looks random replaced by "*".
// Such a suffix is a last dash-separated part of 5 to 10 characters of
// the alphabet Kubernetes draws random and hash suffixes from (no vowels,
// no 0, 1, 3), with at least one letter: "ds-token-x7k2p" or
// "web-6b474476c4". Other names come back unchanged.
func nameGlob(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 1 {
		return name
	}
	suffix := name[i+1:]
	if len(suffix) < 5 || len(suffix) > 10 || strings.Trim(suffix, randomAlphabet) != "" ||
		strings.Trim(suffix, "0123456789") == "" {
		return name
	}
	return name[:i+1] + "*"
}

// randomAlphabet is the alphabet of k8s.io/apimachinery's rand.String and
// SafeEncodeString.
const randomAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// endState learns from end-state differences between a and b.
func (l *learner) endState(a, b *run) {
	for _, k := range sortedKeys(a.end, b.end) {
		if _, ok := folded(k, a, b); ok || l.end.Whole(k) {
			continue
		}
		x, inA := a.end[k]
		y, inB := b.end[k]
		if inA != inB {
			l.add(&ir.MaskRule{Target: refOf(k), Whole: true, Oracle: ir.OracleEnd})
			continue
		}
		m := l.end.Object(k)
		for _, d := range diff(l.keys, l.keys.root(k, x), m.Strip(x), m.Strip(y)) {
			l.add(&ir.MaskRule{Target: refOf(k), Path: generalise(d.path).String(), Oracle: ir.OracleEnd})
		}
	}
}

// generalise replaces list indices and key selectors with "*".
func generalise(p ir.Path) ir.Path {
	out := make(ir.Path, len(p))
	for i, e := range p {
		if e.Kind == ir.PathIndex || e.Kind == ir.PathSelect {
			e = ir.AnyElem()
		}
		out[i] = e
	}
	return out
}

// counts learns from creation/deletion count differences.
func (l *learner) counts(a, b *run) {
	for _, k := range sortedKeys(a.counts, b.counts) {
		if _, ok := folded(k, a, b); ok || l.hist.Whole(k) {
			continue
		}
		if countsOf(a.counts, k) != countsOf(b.counts, k) {
			l.add(&ir.MaskRule{Target: refOf(k), Whole: true, Oracle: ir.OracleHistory})
		}
	}
}

// folded learns from generated-name count differences.
func (l *learner) folded(a, b *run) {
	ae, ah := a.foldedCounts()
	be, bh := b.foldedCounts()
	for _, f := range sortedKeys(ah, bh) {
		if ae[f] != be[f] && !l.end.Whole(f) {
			l.add(&ir.MaskRule{Target: refOf(f), Whole: true, Oracle: ir.OracleEnd})
		}
		if countsOf(ah, f) != countsOf(bh, f) && !l.hist.Whole(f) {
			l.add(&ir.MaskRule{Target: refOf(f), Whole: true, Oracle: ir.OracleHistory})
		}
	}
}

// sortRules orders rules by target, oracle, whole-object first, then path.
func sortRules(rs []*ir.MaskRule) {
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if a.Target.String() != b.Target.String() {
			return a.Target.String() < b.Target.String()
		}
		if a.Oracle != b.Oracle {
			return a.Oracle < b.Oracle
		}
		if a.Whole != b.Whole {
			return a.Whole
		}
		return a.Path < b.Path
	})
}
