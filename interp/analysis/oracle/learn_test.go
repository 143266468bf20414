package oracle

import "testing"

// TestNameGlob globs random and hash suffixes only.
func TestNameGlob(t *testing.T) {
	for in, want := range map[string]string{
		"ds-token-x7k2p":     "ds-token-*",
		"web-6b474476c4":     "web-*",
		"data-ds-0":          "data-ds-0",
		"ds-controller":      "ds-controller",
		"backup-24567":       "backup-24567", // digits only: a number, not a hash
		"cache-bcdfghjklmnp": "cache-bcdfghjklmnp",
		"nodash":             "nodash",
	} {
		if got := nameGlob(in); got != want {
			t.Errorf("nameGlob(%q) = %q, want %q", in, got, want)
		}
	}
}
