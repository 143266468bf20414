package buildinfo

import (
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestParse reads a build info as go install and go build record it.
func TestParse(t *testing.T) {
	cases := []struct {
		name string
		bi   *debug.BuildInfo
		want Info
	}{
		{"installed", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.4.0"},
			Deps: []*debug.Module{{Path: "k8s.io/kubernetes", Version: "v1.37.2"}, {Path: "k8s.io/client-go", Version: "v0.37.2"}}},
			Info{Version: "v0.4.0", Go: "go1.26.0", Kubernetes: "v1.37.2"}},
		{"checkout, modified", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "f77909b"}, {Key: "vcs.time", Value: "2026-12-03T15:00:00Z"}, {Key: "vcs.modified", Value: "true"}},
			Deps:     []*debug.Module{{Path: "k8s.io/client-go", Version: "v0.0.0", Replace: &debug.Module{Version: "v0.37.2"}}}},
			Info{Version: "(devel)", Revision: "f77909b", Time: "2026-12-03T15:00:00Z", Modified: true, Go: "go1.26.0", Kubernetes: "v1.37.2"}},
		{"no kubernetes", &debug.BuildInfo{GoVersion: "go1.26.0"}, Info{Version: "(devel)", Go: "go1.26.0"}},
	}
	for _, c := range cases {
		if got := parse(c.bi); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestRead reads this test binary's own build information.
func TestRead(t *testing.T) {
	if got := Read(); got.Go != runtime.Version() {
		t.Errorf("Go: %q, want %q", got.Go, runtime.Version())
	}
}

// TestReadFile reads the build information of the go command's own binary
// and fails on a file that is not a Go binary.
func TestReadFile(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("needs the go command: %v", err)
	}
	in, err := ReadFile(goBin)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(in.Go, "go1.") {
		t.Errorf("Go: %q, want go1.*", in.Go)
	}
	if _, err := ReadFile("buildinfo.go"); err == nil {
		t.Error("ReadFile of a source file: no error")
	}
}
