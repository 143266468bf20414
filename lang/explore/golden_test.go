package explore_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// TestGolden explores the seed and CRD of each archive in testdata: its
// seed.yaml and crd.yaml, or with an example section ("datastore
// datastore.yaml") the CRD and a seed of that example spec in specs/.
// An options section sets the options, one a line: seed N, max N, only
// PATTERN, skip PATTERN. out/ops lists the operations and
// out/workload.sieve is the printed workload, which the test also checks
// as part of a spec.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) < 6 {
		t.Fatalf("only %d archives in testdata", len(files))
	}
	specs, err := filepath.Abs(filepath.Join("..", "..", "specs"))
	if err != nil {
		t.Fatal(err)
	}
	golden.Archives(t, files, func(t *testing.T, ar *txtar.Archive) map[string][]byte {
		in := golden.Files(ar)
		seed, crd := inputs(t, specs, in)
		r, err := explore.Load(seed, crd)
		if err != nil {
			t.Fatal(err)
		}
		ops := explore.Generate(r, options(t, string(in["options"])))
		var list strings.Builder
		for _, op := range ops {
			list.WriteString(op.String() + "\n")
		}
		text, err := explore.Print("explored", "seed.yaml", r, ops)
		if err != nil {
			t.Fatal(err)
		}
		checkSpec(t, seed, crd, text, string(in["options"]))
		return map[string][]byte{"out/ops": []byte(list.String()), "out/workload.sieve": text}
	})
}

// inputs returns the seed and CRD an archive names.
func inputs(t *testing.T, specs string, in map[string][]byte) (seed, crd []byte) {
	ex := strings.Fields(string(in["example"]))
	if len(ex) != 2 {
		return in["seed.yaml"], in["crd.yaml"]
	}
	dir := filepath.Join(specs, ex[0])
	seed, err1 := os.ReadFile(filepath.Join(dir, ex[1]))
	crd, err2 := os.ReadFile(filepath.Join(dir, "crd.yaml"))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return seed, crd
}

func options(t *testing.T, text string) explore.Options {
	var o explore.Options
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		word, arg, _ := strings.Cut(line, " ")
		var err error
		switch word {
		case "":
		case "seed":
			o.Seed, err = strconv.ParseUint(arg, 10, 64)
		case "max":
			o.Max, err = strconv.Atoi(arg)
		case "only", "skip":
			p, perr := ir.ParsePattern(arg)
			if err = perr; word == "only" {
				o.Only = append(o.Only, p)
			} else {
				o.Skip = append(o.Skip, p)
			}
		default:
			t.Fatalf("options: unknown %q", word)
		}
		if err != nil {
			t.Fatalf("options: %s: %v", line, err)
		}
	}
	return o
}

// checkSpec checks the printed workload as the workload of a test whose
// controller has the CRD: it parses, checks and lints without errors; and
// an explore step with the archive's options as its clauses lowers to
// the same steps.
func checkSpec(t *testing.T, seed, crd, workload []byte, opts string) {
	dir := t.TempDir()
	spec := "controller c {\n  command [\"true\"]\n  crds [\"crd.yaml\"]\n}\n\n%s\ntest t {\n  controller c\n  workloads [explored]\n}\n"
	step := "workload explored {\n  explore \"seed.yaml\" " + clauses(opts) + "\n}\n"
	files := map[string][]byte{"seed.yaml": seed, "crd.yaml": crd,
		"spec.sieve": fmt.Appendf(nil, spec, workload), "step.sieve": fmt.Appendf(nil, spec, step)}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	printed, ds := load.Load(filepath.Join(dir, "spec.sieve"), load.Options{})
	if ds.HasErrors() {
		t.Fatalf("printed workload does not check: %v\n%s", ds, files["spec.sieve"])
	}
	stepped, ds := load.Load(filepath.Join(dir, "step.sieve"), load.Options{})
	if ds.HasErrors() {
		t.Fatalf("explore step does not check: %v\n%s", ds, files["step.sieve"])
	}
	if a, b := stepsJSON(t, printed), stepsJSON(t, stepped); a != b {
		t.Errorf("the explore step lowers to other steps than the printed workload:\nprinted: %s\nstep:    %s", a, b)
	}
}

// clauses writes the options of an archive as an explore step's clauses.
func clauses(opts string) string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(opts), "\n") {
		if word, arg, ok := strings.Cut(line, " "); ok {
			if word == "only" || word == "skip" {
				arg = strconv.Quote(arg)
			}
			out = append(out, word+" "+arg)
		}
	}
	return strings.Join(out, " ")
}

// stepsJSON returns the steps of spec's one workload as JSON, without
// their positions and operation marks, which differ between the two forms.
func stepsJSON(t *testing.T, spec *ir.Spec) string {
	var steps []ir.Step
	for _, s := range spec.Tests[0].Workloads[0].Steps {
		c := *s
		c.Src, c.Explored = diag.Range{}, nil
		steps = append(steps, c)
	}
	b, err := json.Marshal(steps)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
