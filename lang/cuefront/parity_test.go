package cuefront_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/cuefront"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// TestParity holds the two front ends equal: for every X.sieve with a
// sibling X.cue under testdata/parity and specs/, the IR dumps are
// byte-identical once source ranges are zeroed.
func TestParity(t *testing.T) {
	pairs := parityPairs(t, "testdata/parity", "../../specs")
	if len(pairs) < 3 {
		t.Errorf("want at least three .sieve/.cue pairs, found %d", len(pairs))
	}
	for _, sieve := range pairs {
		t.Run(strings.TrimSuffix(filepath.Base(sieve), ".sieve"), func(t *testing.T) {
			// SIEVE_PARITY_OUT=DIR keeps both dumps for diffing.
			out := filepath.Join(os.Getenv("SIEVE_PARITY_OUT"), strings.TrimSuffix(filepath.Base(sieve), ".sieve"))
			want := compileNoSrc(t, sieve, out+".sieve.json")
			got := compileNoSrc(t, strings.TrimSuffix(sieve, ".sieve")+".cue", out+".cue.json")
			if !bytes.Equal(got, want) {
				t.Errorf("IR differs:\n%s", lineDiff(want, got))
			}
		})
	}
}

// parityPairs lists the .sieve files under roots that have a .cue twin.
func parityPairs(t *testing.T, roots ...string) []string {
	var out []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) != ".sieve" {
				return err
			}
			if _, err := os.Stat(strings.TrimSuffix(p, ".sieve") + ".cue"); err == nil {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// compileNoSrc compiles a spec and dumps its IR with every "src" field and
// the file name zeroed.
func compileNoSrc(t *testing.T, path, keep string) []byte {
	t.Helper()
	spec, ds := load.Load(path, load.Options{})
	if ds.HasErrors() {
		t.Fatalf("%s: %v", path, ds)
	}
	b, err := ir.Dump(spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := cuefront.CheckIR(b); err != nil {
		t.Errorf("%s: %v", path, err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	delete(v.(map[string]any), "file")
	out, _ := json.MarshalIndent(stripSrc(v), "", "  ")
	out = append(out, '\n')
	if os.Getenv("SIEVE_PARITY_OUT") != "" {
		_ = os.WriteFile(keep, out, 0o644)
	}
	return out
}

func stripSrc(v any) any {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "src")
		for k, e := range v {
			v[k] = stripSrc(e)
		}
	case []any:
		for i, e := range v {
			v[i] = stripSrc(e)
		}
	}
	return v
}

// lineDiff shows the first differing lines of two dumps.
func lineDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) && i < len(g); i++ {
		if w[i] != g[i] {
			lo, hi := max(0, i-8), min(len(w), len(g), i+8)
			return "--- .sieve ---\n" + strings.Join(w[lo:min(hi, len(w))], "\n") +
				"\n--- .cue ---\n" + strings.Join(g[lo:min(hi, len(g))], "\n")
		}
	}
	return "lengths differ"
}
