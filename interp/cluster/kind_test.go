package cluster

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/sievetool/sieve/internal/golden"
)

func TestKindConfig(t *testing.T) {
	cases := []struct {
		name string
		opts KindOptions
	}{
		{"single", KindOptions{Name: "t"}},
		{"ha", KindOptions{Name: "t", ControlPlanes: 3, Workers: 2, NodeImage: "kindest/node:v1.37.2"}},
		{"disable", KindOptions{Name: "t", Disable: []string{"statefulset-controller", "deployment-controller"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := NewKind(c.opts).Config()
			if err != nil {
				t.Fatal(err)
			}
			got, err := yaml.Marshal(cfg)
			if err != nil {
				t.Fatal(err)
			}
			golden.File(t, filepath.Join("testdata", "kind-"+c.name+".yaml"), got)
		})
	}
}

func TestKindConfigRejectsBadCounts(t *testing.T) {
	for _, opts := range []KindOptions{{ControlPlanes: 2}, {Workers: -1}} {
		if _, err := NewKind(opts).Config(); err == nil {
			t.Errorf("Config(%+v): no error", opts)
		}
	}
}

func TestKindStartWithoutRuntime(t *testing.T) {
	k := NewKind(KindOptions{Runtime: func(context.Context) (string, error) { return "", ErrNoContainerRuntime }})
	err := k.Start(context.Background())
	if !errors.Is(err, ErrNoContainerRuntime) {
		t.Fatalf("Start: got %v, want ErrNoContainerRuntime", err)
	}
	if !strings.Contains(err.Error(), "embedded backend") {
		t.Errorf("error does not suggest the embedded backend: %v", err)
	}
	if err := k.Stop(); err != nil {
		t.Errorf("Stop after failed Start: %v", err)
	}
}

// TestProbeRuntime checks the real probe against this machine: a docker
// client whose daemon does not answer must not count as a runtime.
func TestProbeRuntime(t *testing.T) {
	engine, err := probeRuntime(context.Background())
	if err == nil {
		t.Logf("container engine %s answers", engine)
		return
	}
	if !errors.Is(err, ErrNoContainerRuntime) {
		t.Fatalf("probeRuntime: %v", err)
	}
	if path, lerr := exec.LookPath("docker"); lerr == nil {
		if exec.Command(path, "info").Run() == nil {
			t.Fatalf("docker info succeeds but the probe found no runtime")
		}
	}
}

func TestExistingNeedsExplicitPath(t *testing.T) {
	err := NewExisting(ExistingOptions{}).Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "--kubeconfig") {
		t.Fatalf("Start without a path: %v", err)
	}
	err = NewExisting(ExistingOptions{Path: filepath.Join(t.TempDir(), "missing")}).Start(context.Background())
	if err == nil {
		t.Fatal("Start with a missing file: no error")
	}
}
