package manifest

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i, prev := 'b', 'a'; i <= 'h'; i, prev = i+1, i {
		bomb += string(i) + ": &" + string(i) + " [" + strings.Repeat("*"+string(prev)+", ", 9) + "*" + string(prev) + "]\n"
	}
	text := strings.Repeat("not yaml, a log line ", 1000)
	for _, tc := range []struct {
		name, src, want string // want: error text, or the objects' kinds
	}{
		{"ok", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n---\n{\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\", \"metadata\": {\"name\": \"b\"}}\n", "ConfigMap Deployment"},
		{"crd", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: xs.a.b}\nspec: {names: {kind: X}}\n", "CustomResourceDefinition/X"},
		{"invalid", "apiVersion: v1\nkind: [\n", "invalid YAML: line 2: did not find expected node content"},
		{"no kind", "apiVersion: v1\nmetadata: {name: a}\n", "line 1: document 1: needs apiVersion, kind and metadata.name"},
		{"list", "- a\n", "line 1: document 1: want an object (a mapping), got a list"},
		{"empty", "# nothing\n", "no objects"},
		{"large text", text, `line 1: document 1: want an object (a mapping), got "` + text[:200] + `…"`},
		{"bomb", bomb + "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n", "line 1: YAML aliases expand to more than 100000 nodes (the limit)"},
		{"list key", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  ? [a, b]\n  : x\n", "line 1: document 1: the mapping key at line 5 is not a string, a number or a bool (JSON, which the API server reads, has no other)"},
		{"null key", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {~: x, 1: y, true: z}\n", "line 1: document 1: the mapping key at line 4 is not a string, a number or a bool (JSON, which the API server reads, has no other)"},
		{"few aliases", "apiVersion: v1\nkind: ConfigMap\nmetadata: &m {name: a}\ndata: {x: *m}\n", "ConfigMap"},
	} {
		objs, err := Parse([]byte(tc.src))
		got := ""
		if err != nil {
			got = err.Error()
		}
		for i, o := range objs {
			if i > 0 {
				got += " "
			}
			got += o.Kind
			if o.CRD != nil {
				got += "/" + o.CRD.Kind
			}
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
