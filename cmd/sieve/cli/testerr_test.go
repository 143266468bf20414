package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// TestTestErr holds that a test whose reference run shows a spec mistake
// exits 2 with a diagnostic at the spec position, printed once, and that
// any other pipeline error stays an infrastructure error (exit 3).
func TestTestErr(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.sieve")
	if err := os.WriteFile(spec, []byte("invariant none always `objects(\"configmap\", \"e2e\").size() == 0`\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	at := diag.Position{Filename: spec, Line: 1, Column: 1}
	var stderr bytes.Buffer
	g := &globals{stderr: &stderr, stdout: &bytes.Buffer{}, noColor: true}
	test := &ir.Test{Name: "t"}
	err := g.testErr(test, fmt.Errorf("wrapped: %w", pipeline.SpecErrors{{
		Src: diag.Range{Start: at, End: at}, Run: 1, Trace: "ref/trace.jsonl", Seq: 12,
		What: `invariant "none" is false at trace entry 12 (3 states)`,
	}}))
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitUsage || !ee.printed {
		t.Fatalf("testErr = %#v, want exit 2, printed", err)
	}
	out := stderr.String()
	for _, want := range []string{
		`spec.sieve:1:1: error: test t: reference run 1: invariant "none" is false at trace entry 12 (3 states), in ref/trace.jsonl`,
		"1 | invariant none always",
		"hint: " + pipeline.Hint,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stderr lacks %q:\n%s", want, out)
		}
	}
	if err := g.testErr(test, errors.New("reset cluster: boom")); !errors.As(err, &ee) || ee.code != exitInfra {
		t.Errorf("an infrastructure error: %#v, want exit 3", err)
	}
}
