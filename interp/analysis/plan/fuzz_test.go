package plan

import (
	"bytes"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// FuzzGenerate makes plans of every pattern from arbitrary reference
// traces (sieve plan --trace FILE reads any file), seeded with prefixes of
// testdata's traces. Generation must never panic, and must end in bounded
// time with few candidates allowed. Every plan it makes must survive its
// file (Marshal, then Decode) and its .sieve form (compiled back to the
// same actions), whatever names and values the trace holds.
func FuzzGenerate(f *testing.F) {
	hostile.Seeds(f, 6<<10, "testdata/*.trace.jsonl")
	test := &ir.Test{Name: "fuzz", Policies: []*ir.Policy{{Name: "all",
		Patterns: []ir.Pattern{ir.Intermediate, ir.Stale, ir.Unobserved}, Prune: ir.DefaultPrune}}}
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := trace.Decode(bytes.NewReader(b))
		if err != nil {
			return
		}
		var set *Set
		hostile.Within(t, hostile.MaxTime, func() { set, err = Generate(tr, test, Options{MaxCandidates: 2000}) })
		if err != nil {
			hostile.CheckError(t, err, b)
			return
		}
		dir := t.TempDir()
		for _, p := range set.Plans {
			out, err := p.Marshal()
			if err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
			back, err := planfile.Decode(out)
			if err != nil || !reflect.DeepEqual(back, p) {
				t.Fatalf("%s: its file reads back as another plan (%v):\n%s", p.Name, err, out)
			}
			roundTrip(t, filepath.Join(dir, "p.sieve"), p, tr)
		}
	})
}
