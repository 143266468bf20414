package oracle

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/ir"
)

// exploredFixture is explored.json in an archive of testdata/explored:
// the explored resource, its operations as `sieve explore --output json`
// prints them, the loop bound, and masks (Std names masks of std/masks).
type exploredFixture struct {
	Resource   trace.Key `json:"resource"`
	Operations []struct {
		Path   string         `json:"path"`
		Change explore.Change `json:"change"`
		Value  any            `json:"value"`
	} `json:"operations"`
	Steps     []StepID    `json:"steps"`
	LoopBound int         `json:"loopBound"`
	Std       []string    `json:"std"`
	OwnKeys   []trace.Key `json:"ownKeys"`
}

// TestExploredGolden runs every testdata/explored/*.txtar archive:
// trace.jsonl and explored.json in, out/findings.json (CheckExplored's
// findings) out. The archive's comment says how many findings it wants.
// SIEVE_UPDATE=1 rewrites the outputs.
func TestExploredGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/explored/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata/explored/*.txtar archives")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) { runExplored(t, f) })
	}
}

func runExplored(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	files := golden.Files(ar)
	var fx exploredFixture
	if err := json.Unmarshal(files["explored.json"], &fx); err != nil {
		t.Fatalf("explored.json: %v", err)
	}
	ex := Explored{Resource: fx.Resource, LoopBound: fx.LoopBound, Steps: fx.Steps}
	for _, o := range fx.Operations {
		p, err := ir.ParsePath(o.Path)
		if err != nil {
			t.Fatalf("explored.json: %s: %v", o.Path, err)
		}
		ex.Operations = append(ex.Operations, explore.Operation{Path: p, Change: o.Change, Value: o.Value})
	}
	tr := decodeTrace(t, "trace.jsonl", files["trace.jsonl"])
	fs, err := CheckExplored(tr, ex, Options{Masks: stdMasks(t, fx.Std), OwnKeys: fx.OwnKeys})
	if err != nil {
		t.Fatal(err)
	}
	if fs == nil {
		fs = []*Finding{}
	}
	golden.Check(t, file, ar, map[string][]byte{"out/findings.json": indent(t, fs)})
	checkExpectation(t, ar, fs)
}

// TestCarries holds the renderings the consistency check accepts, and
// the near misses it must not: a number inside a longer number, a word
// inside a longer word.
func TestCarries(t *testing.T) {
	cases := []struct {
		got, want any
		carried   bool
	}{
		{float64(4), float64(4), true},
		{"4", float64(4), true},
		{float64(4), "4", true},
		{"2147483648", "2Gi", true},
		{"--log-level=debug", "debug", true},
		{"true", true, true},
		{map[string]any{"ports": []any{map[string]any{"port": float64(8081)}}}, map[string]any{"port": float64(8081), "tls": true}, true},
		{"--replicas=30", float64(3), false},
		{"debugger", "debug", false},
		{"1Gi", "2Gi", false},
		{true, map[string]any{"enabled": true}, false},
		{absent{}, "x", false},
	}
	for _, c := range cases {
		if got := carries(c.got, c.want); got != c.carried {
			t.Errorf("carries(%#v, %#v) = %v, want %v", c.got, c.want, got, c.carried)
		}
	}
}
