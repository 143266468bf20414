package report

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/results"
)

// TestHTMLStructure checks the generated page without a browser: one
// timeline per plan that did not pass, the fault line, the phases of a
// run that has them, the finding rows,
// the action of a not-injected plan that did not fire, escaping.
func TestHTMLStructure(t *testing.T) {
	page := writeFixtureHTML(t)
	for _, want := range []string{
		`<section class="run" id="plan-intermediate-3">`,
		`<section class="run" id="plan-stale-1">`,
		`<section class="run" id="plan-stale-2">`,
		`<section class="run" id="plan-stale-3">`,
		`<h3>Not found again by the reruns (not counted)</h3>`,
		`<code>plans/stale-3/rerun-1</code> passed`,
		`<svg class="timeline"`,
		`<g class="fault">`,
		`<td>persistentvolumeclaim/default/data-ds-1 is missing at the end (the reference has it)</td>`,
		`sieve reproduce testdata/results/plans/intermediate-3`,
		`start controller: exec: &#34;bin/operator&#34;: file not found`,
		`<section class="run" id="plan-unobserved-2">`,
		`<p class="not-fired status-not-injected">Not injected, nothing was tested: action 1 of 2 (hold pod/default/web-x7k2p) never fired: the test run never met its trigger: on update pod/default/web-x7k2p.</p>`,
		`<h3>Seen in a run that tested nothing (not counted)</h3>`,
		`<title>wait (specs/ds/ds.sieve:11:3) 3.98s</title>`,
		`<rect class="window"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	if n := strings.Count(page, `<svg class="timeline"`); n != 10 {
		t.Errorf("%d timelines, want 10 (three failing plans, a flaky one and a not-injected one, each with its reference)", n)
	}
	if i := strings.Index(page, `id="plan-unobserved-2"`); i < 0 || strings.Contains(page[i:], "Differences against the reference") {
		t.Error("the not-injected plan's findings are shown as differences, not as context")
	}
	rest := strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, "")
	if strings.Contains(page, "<script") || strings.Contains(rest, "http://") || strings.Contains(rest, "https://") {
		t.Error("index.html has a script or a remote reference")
	}
}

func writeFixtureHTML(t *testing.T) string {
	t.Helper()
	s, err := results.Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := HTML(dir, fixture, s); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// chromium finds Debian's chromium, or skips.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium (apt-get install -y chromium): cannot check the HTML report in a browser")
	return ""
}

// headless runs chromium headless on file with extra flags.
func headless(t *testing.T, bin, file string, flags ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--user-data-dir=" + t.TempDir(),
	}, flags...)
	args = append(args, "file://"+file)
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	return out.Bytes()
}

// TestHTMLInBrowser loads the report in headless chromium: the DOM it
// builds holds the timeline SVGs (with their fault line and marks) and the
// findings, and a screenshot is a non-trivial PNG. SIEVE_SCREENSHOT=FILE
// keeps the screenshot.
func TestHTMLInBrowser(t *testing.T) {
	bin := chromium(t)
	s, err := results.Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := HTML(dir, fixture, s); err != nil {
		t.Fatal(err)
	}
	page, _ := filepath.Abs(filepath.Join(dir, "index.html"))
	dom := string(headless(t, bin, page, "--dump-dom"))
	for _, want := range []string{`<svg class="timeline"`, `class="fault"`, `class="finding"`, `class="step"`, `class="phase"`,
		"persistentvolumeclaim/default/data-ds-1", "status.readyReplicas"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the DOM chromium built lacks %s", want)
		}
	}
	shot := filepath.Join(t.TempDir(), "report.png")
	headless(t, bin, page, "--screenshot="+shot, "--window-size=1280,2400", "--hide-scrollbars")
	png, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 20000 {
		t.Errorf("screenshot is not a plausible PNG (%d bytes)", len(png))
	}
	if keep := os.Getenv("SIEVE_SCREENSHOT"); keep != "" {
		if err := os.WriteFile(keep, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
