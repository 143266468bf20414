package cli

import (
	"path/filepath"
	"testing"
)

// TestPaths checks the two halves of path handling at the edge: what the
// user gives is made absolute against the working directory, and what is
// printed is made relative to it again.
func TestPaths(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	spec, out, none := "specs/x.sieve", "sieve-results", ""
	if err := absPaths(&spec, &out, &none); err != nil {
		t.Fatal(err)
	}
	if spec != filepath.Join(wd, "specs/x.sieve") || out != filepath.Join(wd, "sieve-results") || none != "" {
		t.Errorf("absPaths: %q %q %q; want them below %s, and the empty one empty", spec, out, none, wd)
	}
	if got := relPath(out); got != "sieve-results" {
		t.Errorf("relPath(%q) = %q, want sieve-results", out, got)
	}
	cases := map[string]string{
		spec + ":3:1: controller c: exited":                         "specs/x.sieve:3:1: controller c: exited",
		"end of its log " + out + "/reference/run-1/controller.log": "end of its log sieve-results/reference/run-1/controller.log",
		"see /elsewhere" + wd + "/x":                                "see /elsewhere" + wd + "/x", // a longer path
		"outside: /etc/passwd":                                      "outside: /etc/passwd",
		wd:                                                          wd, // the directory itself: no shorter name
	}
	for in, want := range cases {
		if got := relText(in); got != want {
			t.Errorf("relText(%q) = %q, want %q", in, got, want)
		}
	}
}
