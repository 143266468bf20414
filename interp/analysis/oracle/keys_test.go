package oracle

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// TestKeyedDiff compares objects whose lists Kubernetes keys: built-in
// kinds by the Go types' merge keys, custom resources by their CRD's
// list-map keys, "conditions" by type, sets in any order.
func TestKeyedDiff(t *testing.T) {
	crd := decode(t, `{"spec": {"group": "example.com", "names": {"kind": "Datastore"}, "versions": [{"name": "v1",
	  "schema": {"openAPIV3Schema": {"properties": {"spec": {"properties": {
	    "members": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["zone", "id"],
	                "items": {"properties": {"tags": {"type": "array", "x-kubernetes-list-type": "set"}}}},
	    "order": {"type": "array"}}}}}}}]}}`)
	r := &run{end: map[trace.Key]map[string]any{{Kind: "customresourcedefinition", Name: "datastores.example.com"}: crd}}
	keys := newListKeys(r)
	ds := trace.Key{Kind: "datastore.example.com", Namespace: "default", Name: "ds"}
	pod := trace.Key{Kind: "pod", Namespace: "default", Name: "p"}
	cases := []struct {
		key       trace.Key
		ref, test string
		want      string // the deltas' paths, comma-separated
	}{
		{ds, `{"spec": {"members": [{"zone": "a", "id": 1, "tags": ["x", "y"]}, {"zone": "b", "id": 1}]}}`,
			`{"spec": {"members": [{"zone": "b", "id": 1}, {"zone": "a", "id": 1, "tags": ["y", "x"]}]}}`, ""},
		{ds, `{"spec": {"members": [{"zone": "a", "id": 1, "role": "leader"}]}}`,
			`{"spec": {"members": [{"zone": "a", "id": 1, "role": "follower"}, {"zone": "c", "id": 2}]}}`,
			"spec.members[zone=a,id=1].role,spec.members[zone=c,id=2]"},
		{ds, `{"spec": {"order": ["a", "b"]}}`, `{"spec": {"order": ["b", "a"]}}`, "spec.order[0],spec.order[1]"},
		{ds, `{"status": {"conditions": [{"type": "Ready", "status": "True"}, {"type": "Synced", "status": "True"}]}}`,
			`{"status": {"conditions": [{"type": "Synced", "status": "True"}, {"type": "Ready", "status": "False"}]}}`,
			"status.conditions[type=Ready].status"},
		{pod, `{"apiVersion": "v1", "kind": "Pod", "metadata": {"finalizers": ["a", "b"]}}`,
			`{"apiVersion": "v1", "kind": "Pod", "metadata": {"finalizers": ["b", "a"]}}`, ""},
		{pod, `{"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "a", "ports": [{"containerPort": 53, "protocol": "UDP"}, {"containerPort": 53, "protocol": "TCP", "name": "x"}]}]}}`,
			`{"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "a", "ports": [{"containerPort": 53, "protocol": "TCP", "name": "y"}, {"containerPort": 53, "protocol": "UDP"}]}]}}`,
			"spec.containers[name=a].ports[containerPort=53,protocol=TCP].name"},
		// two elements with one key: by index
		{pod, `{"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "a", "image": "1"}, {"name": "a", "image": "2"}]}}`,
			`{"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "a", "image": "2"}, {"name": "a", "image": "1"}]}}`,
			"spec.containers[0].image,spec.containers[1].image"},
		{pod, `{"metadata": {"labels": {}}, "spec": {"volumes": null}}`, `{"metadata": {}, "spec": {"volumes": []}}`, ""},
	}
	for i, c := range cases {
		ref, val := decode(t, c.ref), decode(t, c.test)
		var paths []string
		for _, d := range diff(keys, keys.root(c.key, ref), ref, val) {
			paths = append(paths, d.path.String())
		}
		if got := strings.Join(paths, ","); got != c.want {
			t.Errorf("case %d: got %q, want %q", i, got, c.want)
		}
	}
}

func decode(t *testing.T, s string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}
