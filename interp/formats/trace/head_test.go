package trace

import (
	"strings"
	"testing"
)

// TestHead: a Head keeps its first Max bytes and counts them all; its
// text drops a rune the bound cut and replaces invalid UTF-8, and Whole
// tells an excerpt that is all of its bytes from one that is not.
func TestHead(t *testing.T) {
	for _, c := range []struct {
		max   int
		in    []string
		text  string
		n     int64
		whole bool
	}{
		{8, []string{"ok\n"}, "ok\n", 3, true},
		{8, []string{"abc", "défgh"}, "abcdéfg", 9, false}, // é kept, h cut
		{5, []string{"abcdé"}, "abcd", 6, false},           // é cut in two
		{8, []string{"a\xffb"}, "a\uFFFDb", 3, false},      // replaced: not the bytes
		{8, []string{""}, "", 0, true},
	} {
		h := &Head{Max: c.max}
		for _, p := range c.in {
			_, _ = h.Write([]byte(p))
		}
		if got := h.Text(); got != c.text || h.N != c.n || Whole(got, h.N) != c.whole {
			t.Errorf("Head{%d} of %q: %q, %d bytes, whole %v; want %q, %d, %v", c.max, strings.Join(c.in, ""), got, h.N, Whole(got, h.N), c.text, c.n, c.whole)
		}
	}
}
