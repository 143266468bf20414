package cuefront_test

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/cuefront"
)

// TestStdGenerated checks that the generated part of the CUE standard
// library has every std mask and policy and is formatted.
func TestStdGenerated(t *testing.T) {
	gen, ds := cuefront.StdGenerated()
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	decls, _ := cuefront.StdDecls()
	for _, kind := range []string{"mask", "policy"} {
		if len(decls[kind]) == 0 {
			t.Errorf("the .sieve stdlib has no %s", kind)
		}
		for _, name := range decls[kind] {
			alias, decl, _ := strings.Cut(name, ".")
			if alias == "faults" || alias == "masks" {
				if !strings.Contains(string(gen), "\n"+alias+": "+decl+": {") {
					t.Errorf("generated std has no %s %s", kind, name)
				}
			}
		}
	}
	again, _ := cuefront.Format("std_gen.cue", gen)
	if string(again) != string(gen) {
		t.Error("generated std is not formatted")
	}
}

// TestStdWorkloads checks that the hand-written CUE workloads are exactly
// the .sieve standard library's; the parity pair testdata/parity/stdlib
// holds their IR equal.
func TestStdWorkloads(t *testing.T) {
	decls, ds := cuefront.StdDecls()
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	want := decls["workload"]
	src, err := fs.ReadFile(cuefront.StdFS(), "workloads.cue")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "workloads: "); ok {
			got = append(got, "workloads."+strings.TrimSuffix(rest, ": {"))
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("CUE std workloads %v, .sieve std workloads %v", got, want)
	}
	pair, err := os.ReadFile("testdata/parity/stdlib/stdlib.sieve")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if !strings.Contains(string(pair), w+"(") {
			t.Errorf("testdata/parity/stdlib/stdlib.sieve does not call %s", w)
		}
	}
}
