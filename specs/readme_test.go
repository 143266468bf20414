package specs

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// quickStart is the command README.md's quick start shows: the first line
// of the first code block under this heading.
const quickStart = "## Quick start"

// readmePlans is how many plans of README.md's command find the bug,
// whatever the number of plans (README.md: "always with the four that find
// the bug").
const readmePlans = 4

// readmePrefix is how that command starts; the test refuses a README whose
// quick start says something else rather than run it.
const readmePrefix = "go run ./cmd/sieve run "

// pvcRecreated is the finding README.md promises for the buggy datastore
// controller: a live datastore's PVC deleted and created once more than in
// the reference. README.md says that however many plans a run makes, the
// four that find it are among them.
func pvcRecreated(f finding) bool {
	return f.Check == "object-count" && f.Key == "persistentvolumeclaim/default/data-ds-0"
}

// TestReadme runs README.md's quick-start command as written, through the
// shell, from the root of a clean copy of the repository, with the default
// results directory. It must exit 1 with the finding on the datastore's
// PVCs. Then sieve runs the fixed test from other working directories:
// from an empty one, with the spec's absolute path, over all the plans,
// where it must find nothing (no false finding on the fixed controller);
// and from the spec's own directory, with its bare name, one plan
// (--max-plans 1), enough to show that the controller builds, starts and
// runs from there. Each must exit 0 and write its results where it was
// run. The fixed runs go beside the buggy one.
func TestReadme(t *testing.T) {
	if testing.Short() {
		t.Skip("runs README.md's command (a build and datastore runs on embedded control planes, minutes); skipped in -short mode")
	}
	t.Parallel()
	command := readmeCommand(t, "../README.md")
	if !strings.Contains(command, " --test buggy") {
		t.Fatalf("README.md's quick start runs %q, not the buggy test (--test buggy)", command)
	}
	root := embeddedtest.CleanCopy(t)
	spec := filepath.Join(root, "specs", "datastore", "datastore.sieve")

	// The buggy run and the fixed ones share nothing but the clean copy,
	// so they go side by side. The fixed ones go one after the other: the
	// second takes the first's reference runs from the reference cache.
	t.Run("buggy", func(t *testing.T) {
		t.Parallel()
		readmeRun(t, exec.Command("sh", "-c", command), root, 1, pvcRecreated)
	})
	t.Run("fixed", func(t *testing.T) {
		t.Parallel()
		sieve := embeddedtest.Binary(t)
		t.Run("elsewhere", func(t *testing.T) {
			cmd := exec.Command(sieve, "run", spec, "--test", "fixed")
			readmeRun(t, cmd, t.TempDir(), 0, nil)
		})
		t.Run("specdir", func(t *testing.T) {
			cmd := exec.Command(sieve, "run", "datastore.sieve", "--test", "fixed", "--max-plans", "1")
			readmeRun(t, cmd, filepath.Dir(spec), 0, nil)
		})
	})
}

// readmeRun runs cmd in dir and checks its exit status and the results it
// wrote to dir/sieve-results: a finding want accepts (nil: no finding),
// and in the output the reproduce command as README.md shows it.
func readmeRun(t *testing.T, cmd *exec.Cmd, dir string, exit int, want func(finding) bool) {
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	keepFailed(t, filepath.Join(dir, "sieve-results"))
	log, err := cmd.CombinedOutput()
	code := exitCode(err)
	if code == 3 && strings.Contains(string(log), "embedded cluster:") {
		t.Skipf("the embedded control plane cannot start here:\n%s", log)
	}
	if code != exit {
		t.Fatalf("%s (in %s) exited %d, want %d (%v)\n%s", strings.Join(cmd.Args, " "), dir, code, exit, err, log)
	}
	fs, _ := findings(t, filepath.Join(dir, "sieve-results"))
	switch {
	case want == nil && len(fs) > 0:
		t.Errorf("%d findings, want none: %+v\n%s", len(fs), fs, log)
	case want != nil && !anyOf(fs, want):
		t.Errorf("no object-count finding on persistentvolumeclaim/default/data-ds-0 among %+v\n%s", fs, log)
	case want != nil && len(slices.DeleteFunc(fs, func(f finding) bool { return !want(f) })) < readmePlans:
		t.Errorf("fewer than %d plans found the object-count finding on persistentvolumeclaim/default/data-ds-0, where README.md says %d do\n%s", readmePlans, readmePlans, log)
	case want != nil && !bytes.Contains(log, []byte("reproduce: sieve reproduce sieve-results/plans/")):
		t.Errorf("no reproduce command relative to the working directory (sieve-results/plans/...) in the output:\n%s", log)
	}
}

// readmeCommand returns the command of the quick start of the README at
// path: the one line of the first code block under quickStart.
func readmeCommand(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	section, block := false, false
	s := bufio.NewScanner(bytes.NewReader(b))
	for s.Scan() {
		l := s.Text()
		switch {
		case !section:
			section = l == quickStart
		case !block && strings.HasPrefix(l, "## "):
			t.Fatalf("%s: no code block under %q", path, quickStart)
		case strings.HasPrefix(l, "```") && block:
			if len(lines) != 1 || !strings.HasPrefix(lines[0], readmePrefix) {
				t.Fatalf("%s: the first code block under %q is %q, want one line %q...", path, quickStart, lines, readmePrefix)
			}
			return lines[0]
		case strings.HasPrefix(l, "```"):
			block = true
		case block && strings.TrimSpace(l) != "":
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	t.Fatalf("%s: no complete code block under %q", path, quickStart)
	return ""
}
