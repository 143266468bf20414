package ir

import (
	"reflect"
	"testing"
)

func TestPathRoundTrip(t *testing.T) {
	for _, c := range []struct {
		elems []string
		path  string
	}{
		{[]string{"spec", "replicas"}, "spec.replicas"},
		{[]string{"status", "conditions", "*", "lastTransitionTime"}, "status.conditions.*.lastTransitionTime"},
		{[]string{"spec", "containers", "0", "image"}, "spec.containers.0.image"},
		{[]string{"metadata", "annotations", "kubectl.kubernetes.io/last-applied-configuration"},
			`metadata.annotations."kubectl.kubernetes.io/last-applied-configuration"`},
		{[]string{"metadata", "labels", "pod-template-hash"}, "metadata.labels.pod-template-hash"},
	} {
		if got := JoinPath(c.elems); got != c.path {
			t.Errorf("JoinPath(%q) = %q, want %q", c.elems, got, c.path)
		}
		if got := SplitPath(c.path); !reflect.DeepEqual(got, c.elems) {
			t.Errorf("SplitPath(%q) = %q, want %q", c.path, got, c.elems)
		}
	}
	for _, bad := range []string{"a..b", `a."b`, "a.", `"x"y`} {
		if got := SplitPath(bad); got != nil {
			t.Errorf("SplitPath(%q) = %q, want nil", bad, got)
		}
	}
}
