package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// TestGenerate runs generation on each case in testdata/cases. A case is
// a txtar archive that names a fixture trace (-- trace --) and,
// optionally, the other reference runs of the same test (-- others --,
// one file a line: see Options.Others). It holds the test (-- test.json
// --, the IR). Optionally it holds the plans known to find a bug (-- true
// --, see checkRecall) and those known to raise a false alarm (-- false
// --, see checkFalse).
//
// The out/ sections are the golden output: the counts table, the plan
// names, each plan, and what became of every candidate (out/explain).
// They say why a pattern yields no plans (out/noplans, when one does
// not), and give the recall and the false alarms dropped. For cases whose
// single policy has every pass on, they give the counts with each pass
// switched off. SIEVE_UPDATE=1 rewrites them.
func TestGenerate(t *testing.T) {
	eachCase(t, func(t *testing.T, f string, ar *txtar.Archive) {
		tr, test, opts := caseInputs(t, ar)
		got := generateOutputs(t, tr, test, opts, golden.Files(ar)["true"], golden.Files(ar)["false"])
		golden.Check(t, f, ar, got)
	})
}

// eachCase runs check on every case of testdata/cases, each as a subtest
// named after its file.
func eachCase(t *testing.T, check func(t *testing.T, file string, ar *txtar.Archive)) {
	files, err := filepath.Glob("testdata/cases/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			check(t, f, ar)
		})
	}
}

// caseInputs reads a case's trace, test and the options with its other
// reference runs.
func caseInputs(t *testing.T, ar *txtar.Archive) (*trace.Trace, *ir.Test, Options) {
	t.Helper()
	files := golden.Files(ar)
	read := func(name string) *trace.Trace {
		tr, err := trace.Read(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	var opts Options
	for _, name := range strings.Fields(string(files["others"])) {
		opts.Others = append(opts.Others, read(name))
	}
	var test ir.Test
	if err := json.Unmarshal(files["test.json"], &test); err != nil {
		t.Fatalf("test.json: %v", err)
	}
	return read(strings.TrimSpace(string(files["trace"]))), &test, opts
}

// generateOutputs generates the plans and renders every output section.
func generateOutputs(t *testing.T, tr *trace.Trace, test *ir.Test, opts Options, truePlans, falsePlans []byte) map[string][]byte {
	t.Helper()
	set, err := Generate(tr, test, opts)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{"out/counts": countsText(t, set.Counts)}
	if lines := NoPlans(set.Counts); len(lines) > 0 {
		out["out/noplans"] = []byte(strings.Join(lines, "\n") + "\n")
	}
	var explain bytes.Buffer
	if err := WriteExplain(&explain, set.Candidates); err != nil {
		t.Fatal(err)
	}
	out["out/explain"] = explain.Bytes()
	if len(truePlans) > 0 {
		out["out/recall"] = checkRecall(t, truePlans, set.Candidates)
	}
	if len(falsePlans) > 0 {
		out["out/false"] = checkFalse(t, falsePlans, set.Candidates)
	}
	var names bytes.Buffer
	for _, p := range set.Plans {
		names.WriteString(p.Name + "\n")
		b, err := p.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		checkRoundTrip(t, p, b)
		out["out/plan/"+p.Name+".json"] = b
	}
	out["out/plans"] = names.Bytes()
	if len(test.Policies) == 1 && test.Policies[0].Prune == ir.DefaultPrune {
		for pass, off := range passSwitches() {
			variant := *test
			pol := *test.Policies[0]
			off(&pol.Prune)
			variant.Policies = []*ir.Policy{&pol}
			vs, err := Generate(tr, &variant, opts)
			if err != nil {
				t.Fatal(err)
			}
			out["out/counts-without-"+pass] = countsText(t, vs.Counts)
		}
	}
	return out
}

// checkRecall finds each true plan among the candidates and fails the
// test unless every pass kept it; it returns the recall report. Each line
// of the true section names a plan by its pattern and the trace entries it
// is made from, "stale event=19 write=27" (write: the crashed write or the
// delete), then, after " # ", why it finds a bug.
func checkRecall(t *testing.T, truePlans []byte, cands []Candidate) []byte {
	t.Helper()
	return checkFates(t, truePlans, cands, true)
}

// checkFalse is checkRecall for plans known to raise a false alarm (the
// false section, in the same form): it fails the test unless a pass
// dropped each of them.
func checkFalse(t *testing.T, falsePlans []byte, cands []Candidate) []byte {
	t.Helper()
	return checkFates(t, falsePlans, cands, false)
}

// checkFates finds each plan a section names among the candidates, fails
// the test when one's fate is not the wanted one (kept, or dropped), and
// reports the fates.
func checkFates(t *testing.T, section []byte, cands []Candidate, keep bool) []byte {
	t.Helper()
	var lines []string
	hit, total := 0, 0
	for _, line := range strings.Split(string(section), "\n") {
		spec, _, _ := strings.Cut(line, " # ")
		fields := strings.Fields(spec)
		if len(fields) == 0 {
			continue
		}
		total++
		want := Candidate{Pattern: Pattern(fields[0])}
		for _, f := range fields[1:] {
			k, v, _ := strings.Cut(f, "=")
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || (k != "event" && k != "write") {
				t.Fatalf("plan %q: want event=SEQ or write=SEQ, got %q", spec, f)
			}
			if k == "event" {
				want.Event = n
			} else {
				want.Write = n
			}
		}
		fate := "not a candidate"
		for _, c := range cands {
			if c.Pattern != want.Pattern || c.Event != want.Event || c.Write != want.Write {
				continue
			}
			if c.Pass == "" {
				fate = "kept as " + c.Plan
			} else {
				fate = "dropped by " + c.Pass + ": " + c.Evidence
			}
			if (c.Pass == "") == keep {
				hit++
			} else {
				t.Errorf("plan %s %s", spec, fate)
			}
			break
		}
		if fate == "not a candidate" && !keep {
			t.Errorf("false plan %s is not a candidate: the fixture no longer shows it", spec)
		}
		lines = append(lines, spec+": "+fate)
	}
	head := fmt.Sprintf("recall: %d of %d true plans kept", hit, total)
	if !keep {
		head = fmt.Sprintf("%d of %d false alarms dropped", hit, total)
	}
	return []byte(head + "\n" + strings.Join(lines, "\n") + "\n")
}

// passSwitches returns, per switchable pass, how to turn it off.
func passSwitches() map[string]func(*ir.Prune) {
	return map[string]func(*ir.Prune){
		PassCausality:        func(p *ir.Prune) { p.Causality = false },
		PassNoOp:             func(p *ir.Prune) { p.NoOp = false },
		PassFailed:           func(p *ir.Prune) { p.Failed = false },
		PassNondeterministic: func(p *ir.Prune) { p.Nondeterministic = false },
		PassDuplicates:       func(p *ir.Prune) { p.Duplicates = false },
	}
}

// countsText renders the counts table.
func countsText(t *testing.T, c []Count) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteCounts(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkRoundTrip checks that a plan decodes back to the same bytes.
func checkRoundTrip(t *testing.T, p *planfile.Plan, b []byte) {
	t.Helper()
	q, err := planfile.Decode(b)
	if err != nil {
		t.Fatalf("plan %s does not decode: %v", p.Name, err)
	}
	b2, err := q.Marshal()
	if err != nil || !bytes.Equal(b, b2) {
		t.Errorf("plan %s does not round-trip:\n%s\n---\n%s", p.Name, b, b2)
	}
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestStaleQuietFromPolicy lifts every generated stale view after the
// policy's stale_quiet of quiet (1s when it says nothing), never later
// than its stale_for.
func TestStaleQuietFromPolicy(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/cases/datastore.txtar")
	if err != nil {
		t.Fatal(err)
	}
	tr, test, _ := caseInputs(t, ar)
	for _, tc := range []struct {
		quiet, staleFor, want ir.Duration
	}{
		{0, 0, ir.Duration(time.Second)},
		{ir.Duration(3 * time.Second), 0, ir.Duration(3 * time.Second)},
		{ir.Duration(8 * time.Second), ir.Duration(6 * time.Second), ir.Duration(6 * time.Second)},
	} {
		pol := *test.Policies[0]
		pol.StaleQuiet, pol.StaleFor = tc.quiet, tc.staleFor
		variant := *test
		variant.Policies = []*ir.Policy{&pol}
		set, err := Generate(tr, &variant, Options{})
		if err != nil {
			t.Fatal(err)
		}
		stale := 0
		for _, p := range set.Plans {
			for _, a := range p.Actions {
				if a.Kind != ir.ActStaleOff {
					continue
				}
				stale++
				if got := a.Trigger.Args[0].Duration; a.Trigger.Args[0].Op != ir.TrigQuiet || got != tc.want {
					t.Errorf("stale_quiet %v, stale_for %v: plan %s lifts its view after %s quiet, want %v", tc.quiet, tc.staleFor, p.Name, got, tc.want)
				}
			}
		}
		if stale == 0 {
			t.Fatalf("no stale plans generated from %s", "datastore.txtar")
		}
	}
}
