package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reportFixture is the results directory the report package tests use.
const reportFixture = "../../../interp/report/testdata/results"

// TestReportCmd runs `sieve report` on the fixture: the text summary and
// exit status 1 (findings), JSON, and the --junit and --html files.
func TestReportCmd(t *testing.T) {
	var out, errb bytes.Buffer
	tmp := t.TempDir()
	junit, html := filepath.Join(tmp, "ci", "junit.xml"), filepath.Join(tmp, "html")
	code := run([]string{"report", "--no-color", reportFixture, "--junit", junit, "--html", html}, &out, &errb)
	if code != exitFindings {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitFindings, errb.String())
	}
	if !strings.HasPrefix(out.String(), "test buggy: 8 plans: 3 failed, 1 flaky") || strings.Contains(out.String(), "\x1b[") {
		t.Errorf("unexpected summary:\n%s", out.String())
	}
	for _, f := range []string{junit, filepath.Join(html, "index.html")} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("not written: %v", err)
		}
	}
	out.Reset()
	if code := run([]string{"report", "--output", "json", reportFixture}, &out, &errb); code != exitFindings {
		t.Errorf("json: exit %d", code)
	}
	var s struct{ Totals struct{ Findings int } }
	if err := json.Unmarshal(out.Bytes(), &s); err != nil || s.Totals.Findings != 6 {
		t.Errorf("json output: %v, findings %d", err, s.Totals.Findings)
	}
}

// TestReportCmdErrors checks the usage error for a directory that holds
// no results.
func TestReportCmdErrors(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"report", t.TempDir()}, &out, &errb); code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	if !strings.Contains(errb.String(), "not a results directory") {
		t.Errorf("stderr: %s", errb.String())
	}
}
