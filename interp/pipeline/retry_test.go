package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSetAside: a failed attempt's files move to unhealthy-N (N counting
// up), the plan and earlier attempts stay where they are.
func TestSetAside(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"plan.json", "trace.jsonl", "controller.log"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range []string{"unhealthy-1", "unhealthy-2"} {
		aside, err := setAside(dir, "plan.json")
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(aside) != want {
			t.Fatalf("attempt %d set aside in %s, want %s", i+1, aside, want)
		}
		if err := os.WriteFile(filepath.Join(dir, "trace.jsonl"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	top := names(t, dir)
	if want := []string{"plan.json", "trace.jsonl", "unhealthy-1", "unhealthy-2"}; !slices.Equal(top, want) {
		t.Errorf("plan directory: %v, want %v", top, want)
	}
	if got, want := names(t, filepath.Join(dir, "unhealthy-1")), []string{"controller.log", "trace.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("unhealthy-1: %v, want %v", got, want)
	}
}

func names(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
