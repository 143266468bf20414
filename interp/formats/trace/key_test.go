package trace

import "testing"

func TestKindName(t *testing.T) {
	cases := []struct{ group, kind, want string }{
		{"", "Pod", "pod"},
		{"apps", "StatefulSet", "statefulset"},
		{"coordination.k8s.io", "Lease", "lease"},
		{"example.com", "DataStore", "datastore.example.com"},
	}
	for _, c := range cases {
		if got := KindName(c.group, c.kind); got != c.want {
			t.Errorf("KindName(%q, %q) = %q, want %q", c.group, c.kind, got, c.want)
		}
	}
}

func TestKindMatches(t *testing.T) {
	cases := []struct {
		spec, kind string
		want       bool
	}{
		{"pod", "pod", true},
		{"Pod", "pod", true},
		{"datastore", "datastore.example.com", true},
		{"datastore.example.com", "datastore.example.com", true},
		{"datastore.other.io", "datastore.example.com", false},
		{"data", "datastore.example.com", false},
		{"pod", "podtemplate", false},
	}
	for _, c := range cases {
		if got := KindMatches(c.spec, c.kind); got != c.want {
			t.Errorf("KindMatches(%q, %q) = %v, want %v", c.spec, c.kind, got, c.want)
		}
	}
}
