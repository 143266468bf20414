package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSentences splits comment text at sentence ends and blank lines,
// keeps "e.g." inside its sentence and leaves indented code out.
func TestSentences(t *testing.T) {
	text := "Package x does y. It has, e.g. this!\nCode:\n\n\tindented code here\n\nNext para"
	var got []int
	for _, s := range sentences(text) {
		got = append(got, len(s))
	}
	if want := []int{4, 4, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("sentence lengths = %v, want %v", got, want)
	}
}

// TestCollectSkipsTestdata counts the comments of a package by its
// directory and leaves testdata out.
func TestCollectSkipsTestdata(t *testing.T) {
	root := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/a.go", "// Package a is one. It has two sentences.\npackage a\n")
	write("a/testdata/b.go", "// Package b is left out.\npackage b\n")
	byPkg, err := collect(root, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(byPkg) != 1 || !slices.Equal(byPkg["a"], []int{4, 4}) {
		t.Errorf("collect = %v, want map[a:[4 4]]", byPkg)
	}
}
