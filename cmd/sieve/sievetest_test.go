package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// downstreamTest is the test file of the downstream module: a buggy and
// a fixed test of the volresize example, narrowed to the plan that shows
// its bug, sharing their control plane through sievetest.Main.
const downstreamTest = `package operator_test

import (
	"testing"

	"github.com/sievetool/sieve/sievetest"
)

func TestMain(m *testing.M) { sievetest.Main(m) }

const spec = "testdata/specs/volresize_e2e.sieve"

func TestBuggy(t *testing.T) { sievetest.Run(t, spec, sievetest.Test("buggy"), sievetest.Parallel(1)) }

func TestFixed(t *testing.T) { sievetest.Run(t, spec, sievetest.Test("fixed"), sievetest.Parallel(1)) }
`

// downstreamFiles are the files of the example copied into the downstream
// module's testdata: the spec, its controller and what the spec reads.
var downstreamFiles = map[string]string{
	"specs/testdata/volresize_e2e.sieve":      "testdata/specs/volresize_e2e.sieve",
	"specs/volresize/volresize.sieve":         "testdata/volresize/volresize.sieve",
	"specs/volresize/crd.yaml":                "testdata/volresize/crd.yaml",
	"specs/volresize/cluster.yaml":            "testdata/volresize/cluster.yaml",
	"specs/volresize/controller/api.go":       "testdata/volresize/controller/api.go",
	"specs/volresize/controller/main.go":      "testdata/volresize/controller/main.go",
	"specs/volresize/controller/reconcile.go": "testdata/volresize/controller/reconcile.go",
}

// TestDownstream tests a controller with sievetest as its authors would. A
// new module outside this repository, with no replace directives, requires
// sieve at the version the checkout is published at (as in TestInstall). It
// holds the volresize example in its testdata and runs go test on a buggy
// and a fixed test. The buggy one fails with the finding, the fixed one
// passes. The control plane is the user's prebuilt one
// ($SIEVE_CONTROLPLANE), the Go build cache the user's own; the module's
// go.sum starts as sieve's, as a go get of sieve would make it.
func TestDownstream(t *testing.T) {
	needPackaging(t)
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cp := embeddedtest.ControlPlane(t)
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	version := publish(t, repo, proxy)
	forgetVersion(t, version)
	t.Cleanup(func() { forgetVersion(t, version) })
	mod := filepath.Join(tmp, "operator")
	writeDownstream(t, repo, mod, version)
	// TestBuggy fails, so sievetest keeps its results in a temporary
	// directory: the test's own, removed with it.
	dtmp := filepath.Join(tmp, "tmp")
	if err := os.Mkdir(dtmp, 0o700); err != nil {
		t.Fatal(err)
	}
	env := append(installEnv(t, tmp, proxy), "SIEVE_CONTROLPLANE="+cp, "GOFLAGS=-mod=mod", "TMPDIR="+dtmp)

	start := time.Now()
	code, log := goTest(t, mod, env)
	t.Logf("downstream go test (build and both tests): %s, exit %d", time.Since(start).Round(time.Second), code)
	if code != 1 {
		t.Fatalf("downstream go test exited %d, want 1 (TestBuggy fails):\n%s", code, log)
	}
	for _, want := range []string{
		"--- FAIL: TestBuggy/intermediate-",
		"field persistentvolumeclaim/default/data-bc-",
		"spec.resources.requests.storage",
		"reproduce: sieve reproduce ",
		"sievetest: the results are kept in " + filepath.Join(dtmp, "sievetest-"),
		"--- PASS: TestFixed",
		// sievetest.Main shares TestBuggy's control plane with TestFixed.
		"sievetest: test fixed: 1 embedded control plane(s), 1 shared with earlier tests",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("downstream go test output lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "--- FAIL: TestFixed") {
		t.Errorf("the fixed test failed:\n%s", log)
	}
}

// writeDownstream writes the downstream module into dir: go.mod requiring
// sieve at version, sieve's go.sum, the example and the test file.
func writeDownstream(t *testing.T, repo, dir, version string) {
	gomod := "module example.com/operator\n\ngo 1.26.0\n\nrequire " + rootModule + " " + version + "\n"
	files := map[string][]byte{"go.mod": []byte(gomod), "operator_test.go": []byte(downstreamTest)}
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.sum"] = sum
	for from, to := range downstreamFiles {
		b, err := os.ReadFile(filepath.Join(repo, from))
		if err != nil {
			t.Fatal(err)
		}
		files[to] = b
	}
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// goTest runs go test -v in the downstream module and returns its exit
// code and output.
func goTest(t *testing.T, dir string, env []string) (int, string) {
	cmd := exec.Command("go", "test", "-count=1", "-v", "-timeout", "15m", ".")
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		t.Fatalf("go test: %v", err)
	}
	return cmd.ProcessState.ExitCode(), out.String()
}
