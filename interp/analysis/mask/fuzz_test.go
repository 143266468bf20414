package mask

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// FuzzMask compiles a rule with arbitrary target globs, key and path, and
// applies it to an arbitrary object, seeded with the rules and objects of
// testdata. Compiling must never panic (a glob is no regular expression
// of the user's) and must fail with a clear error. Stripping leaves the
// object untouched and is idempotent.
func FuzzMask(f *testing.F) {
	pod := []byte(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "ds-0", "uid": "8c7e", "annotations": {"a": "2026-12-02T10:00:00Z"}}, "spec": {"containers": [{"name": "db", "image": "db:1"}, {"ip": "10.0.0.1"}]}}`)
	f.Add("pod", "*", "ds-?", "uid", "spec.containers[*].image", pod)
	f.Add("*.apps", "kube-*", "*-0", "", "metadata.annotations", pod)
	f.Add("datastore", "", "[a]*", "image", "spec.containers[1]", pod)
	f.Add("p?d", "d*t", "*", "", `metadata.labels["example.com/role"]`, pod)
	f.Fuzz(func(t *testing.T, kind, ns, name, key, path string, obj []byte) {
		rule := &ir.MaskRule{Target: ir.Ref{Kind: kind, Namespace: ns, Name: name}, Key: key, Path: path, Value: ValueTimestamp}
		var s *Set
		var err error
		hostile.Within(t, hostile.MaxTime, func() { s, err = Compile([]*ir.Mask{{Name: "m", Rules: []*ir.MaskRule{rule}}}) })
		if err != nil {
			hostile.CheckError(t, err, []byte(path))
			return
		}
		var o map[string]any
		if json.Unmarshal(obj, &o) != nil {
			return
		}
		before, _ := json.Marshal(o)
		m := s.For(ir.OracleAll)
		k := trace.Key{Kind: "pod", Namespace: "default", Name: "ds-0"}
		once := m.Strip(k, o)
		m.Redact(k, o)
		if after, _ := json.Marshal(o); string(after) != string(before) {
			t.Fatalf("stripping changed the object:\n%s\n%s", before, after)
		}
		if twice := m.Strip(k, once); !reflect.DeepEqual(once, twice) {
			t.Fatalf("stripping twice differs:\n%v\n%v", once, twice)
		}
	})
}
