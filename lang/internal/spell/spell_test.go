package spell

import "testing"

func TestNearest(t *testing.T) {
	names := []string{"recreate", "scale", "settle", "masks.default", "faults.stale"}
	for _, c := range []struct{ in, want string }{
		{"recreat", "recreate"},
		{"Recreate", "recreate"},
		{"setle", "settle"},
		{"masks.defualt", "masks.default"},
		{"faults.stael", "faults.stale"},
		{"x", ""},
		{"completely-different", ""},
		{"scale", ""}, // an exact match is not a suggestion
	} {
		if got := Nearest(c.in, names); got != c.want {
			t.Errorf("Nearest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestHint(t *testing.T) {
	if got := Hint("stle", []string{"stale"}); got != `did you mean "stale"?` {
		t.Errorf("Hint = %q", got)
	}
	if got := Hint("zzz", []string{"stale"}); got != "" {
		t.Errorf("Hint = %q, want empty", got)
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"héllo", "hello", 1}, {"biuld", "build", 1}} {
		if got := distance(c.a, c.b); got != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
