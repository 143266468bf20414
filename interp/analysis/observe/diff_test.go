package observe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// TestSlimDiff diffs the cases of testdata/diff.txtar; the out/NAME
// sections are golden (SIEVE_UPDATE=1 rewrites them).
func TestSlimDiff(t *testing.T) {
	const file = "testdata/diff.txtar"
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	files := golden.Files(ar)
	m, err := Masks(nil)
	if err != nil {
		t.Fatal(err)
	}
	o := m.Object(trace.Key{Kind: "pod", Namespace: "default", Name: "a"})
	got := map[string][]byte{}
	for _, name := range caseNames(files) {
		prev := Normalise(o, bytes.TrimSpace(files[name+"/prev.json"]))
		cur := Normalise(o, bytes.TrimSpace(files[name+"/cur.json"]))
		d := SlimDiff(prev, cur)
		got["out/"+name] = fmt.Appendf(nil, "diff: %s\nempty: %v\ncur contains diff.cur: %v\nprev contains diff.cur: %v\n", d, d.Empty(), Contains(cur, d.Cur), Contains(prev, d.Cur))
	}
	golden.Check(t, file, ar, got)
}

// caseNames returns the case directories of an archive, sorted.
func caseNames(files map[string][]byte) []string {
	seen := map[string]bool{}
	for name := range files {
		if dir := path.Dir(name); dir != "." && !strings.HasPrefix(name, "out/") {
			seen[dir] = true
		}
	}
	var out []string
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// TestNormaliseEmbedded: a StatefulSet decoded from protobuf (its volume
// claim templates without apiVersion and kind) and from JSON normalise to
// the same state; an owner reference keeps its apiVersion and kind.
func TestNormaliseEmbedded(t *testing.T) {
	owner := `"ownerReferences":[{"apiVersion":"v1","kind":"Thing","name":"t","uid":"u"}]`
	fromJSON := `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"web",` + owner + `},` +
		`"spec":{"volumeClaimTemplates":[{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data"},"spec":{}}]}}`
	fromProtobuf := `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"web",` + owner + `},` +
		`"spec":{"volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{}}]}}`
	none := (*mask.Matcher)(nil).Object(trace.Key{})
	a, b := Normalise(none, json.RawMessage(fromJSON)), Normalise(none, json.RawMessage(fromProtobuf))
	if StateHash(a) != StateHash(b) {
		t.Errorf("states differ:\n%v\n%v", a, b)
	}
	if a["kind"] != "StatefulSet" || a["apiVersion"] != "apps/v1" {
		t.Errorf("the object lost its own kind: %v", a)
	}
	ref := a["metadata"].(map[string]any)["ownerReferences"].([]any)[0].(map[string]any)
	if ref["kind"] != "Thing" || ref["apiVersion"] != "v1" {
		t.Errorf("owner reference: %v", ref)
	}
}
