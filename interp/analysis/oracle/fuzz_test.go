package oracle

import (
	"bytes"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// FuzzCompare judges arbitrary test runs against a reference run of
// datastore, with an invariant over its objects. (sieve report and
// reproduce judge traces from results directories, which may come from
// anywhere.) Comparing, converging and checking invariants must never
// panic, must end in bounded time and must fail with a clear error. Seeds
// are prefixes of the plan generator's traces.
func FuzzCompare(f *testing.F) {
	hostile.Seeds(f, 6<<10, "../plan/testdata/*.trace.jsonl")
	ref, err := trace.Read("../plan/testdata/datastore.trace.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	inv := &ir.Invariant{Name: "kept", When: ir.Always,
		Expr: `objects("persistentvolumeclaim", "default").all(p, p.metadata.name.startsWith("data-") && !has(p.metadata.deletionTimestamp))`}
	o, err := New([]*trace.Trace{ref}, Options{Invariants: []*ir.Invariant{inv}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := trace.Decode(bytes.NewReader(b))
		if err != nil {
			return
		}
		var errs [3]error
		hostile.Within(t, hostile.MaxTime, func() {
			_, errs[0] = o.Check(tr)
			_, errs[1] = o.Converge(tr)
			_, errs[2] = o.Transient(tr)
		})
		for _, err := range errs {
			if err != nil {
				hostile.CheckError(t, err, b)
			}
		}
	})
}
