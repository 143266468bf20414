package ci

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

// lint runs actionlint on a workflow, with shellcheck on its run: scripts
// when shellcheck is installed.
func lint(t *testing.T, name string, src []byte) []*actionlint.Error {
	t.Helper()
	opts := &actionlint.LinterOptions{LogWriter: io.Discard}
	if p, err := exec.LookPath("shellcheck"); err == nil {
		opts.Shellcheck = p
	} else {
		t.Log("shellcheck is not installed: the run: scripts are not checked by it")
	}
	l, err := actionlint.NewLinter(io.Discard, opts)
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.Lint(name, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	return errs
}

// TestActionlint holds the documented workflow clean under actionlint.
func TestActionlint(t *testing.T) {
	src, err := os.ReadFile(workflowFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range lint(t, workflowFile, src) {
		t.Errorf("%s", e)
	}
}

// TestActionlintFinds shows that the lint can fail: a job that needs a
// job that does not exist is reported.
func TestActionlintFinds(t *testing.T) {
	src, err := os.ReadFile(workflowFile)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), "needs: record", "needs: recrod", 1)
	if bad == string(src) {
		t.Fatalf("%s has no job that needs record", workflowFile)
	}
	errs := lint(t, workflowFile, []byte(bad))
	if len(errs) == 0 || !strings.Contains(errs[0].Message, "recrod") {
		t.Errorf("actionlint did not report the unknown job recrod: %v", errs)
	}
}

// TestDocQuotes holds docs/ci.md's copies of the workflow and the script
// equal to the files.
func TestDocQuotes(t *testing.T) {
	doc, err := os.ReadFile("../ci.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct{ file, fence string }{{workflowFile, "```yaml\n"}, {"run-shards.sh", "```bash\n"}} {
		b, err := os.ReadFile(q.file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), q.fence+string(b)+"```\n") {
			t.Errorf("docs/ci.md does not quote %s as it is (a %s block)", q.file, strings.TrimSpace(q.fence))
		}
	}
}
