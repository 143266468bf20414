package cuefront

import (
	"strings"
	"testing"
)

// TestFieldAt finds the schema field under a cursor (written ^ before the
// character it is on) and its doc comment, through patterns, lists,
// unifications and a file that does not parse; and nothing for a label
// the schema does not know.
func TestFieldAt(t *testing.T) {
	for _, tc := range []struct {
		src, path, doc string // doc: a part of the doc comment; path "": no field
	}{
		{"controllers: ds: {namespace: \"default\", ^builtin: \"statefulset\"}\n", "controllers.ds.builtin", ""},
		{"controllers: ds: ^namespace: \"default\"\n", "controllers.ds.namespace", "the default is [\"default\"]"},
		{"workload: up: steps: [{apply: \"x.yaml\"}, {^settle: \"2s\"}]\n", "workload.up.steps.[].settle", "quiet for the duration"},
		{"policy: p: {\n\tstale_q^uiet: \"2s\"\n}\n", "policy.p.stale_quiet", "ends a stale view early"},
		{"test: fixed: test.buggy & {^settle_max: \"2m\"}\n", "test.fixed.settle_max", "The bound on every settle"},
		{"test: t: {\"^runs\": 3}\n", "test.t.runs", ""},
		{"test: t: {settle_max: \"2m\", ^runs: 3, controller: \n", "test.t.runs", ""},
		{"controllers: ds: {^nmespace: \"x\"}\n", "", ""},
		{"controllers: ds: {_^x: 1}\n", "", ""},
		{"workload: up: params: ^replicas: 3\n", "", ""},
		{"controllers: ds: {namespace: ^\"default\"}\n", "", ""},
	} {
		off := strings.Index(tc.src, "^")
		src := strings.Replace(tc.src, "^", "", 1)
		f, ok := FieldAt("spec.cue", []byte(src), off)
		if got := strings.Join(f.Path, "."); got != tc.path || ok != (tc.path != "") {
			t.Errorf("%q: field %q (ok %v), want %q", tc.src, got, ok, tc.path)
			continue
		}
		if !strings.Contains(f.Doc, tc.doc) {
			t.Errorf("%q: doc %q, want it to hold %q", tc.src, f.Doc, tc.doc)
		}
		if ok && src[f.Start:f.End] != f.Path[len(f.Path)-1] && src[f.Start:f.End] != `"`+f.Path[len(f.Path)-1]+`"` {
			t.Errorf("%q: label range holds %q", tc.src, src[f.Start:f.End])
		}
	}
}
