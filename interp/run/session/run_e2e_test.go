package session_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/session/sessiontest"
)

// TestBadInput runs tests whose controller or workload cannot work: each
// run's error names the spec line of the culprit, and the run's directory
// keeps the controller log and the trace written so far.
func TestBadInput(t *testing.T) {
	cases := []struct {
		test string
		// at is the text the error must point at in specFile.
		at string
		// want are parts of the error message.
		want []string
		// workload is set when the workload fails, not the run.
		workload bool
		// log is a line the controller log must hold.
		log string
		// lifecycle is the controller's lifecycle in the trace.
		lifecycle []string
	}{
		{test: "missing", at: "controller missing", want: []string{"controller missing", "command not found", "no-such-controller-sieve"},
			log: "controller not started: " + specFile},
		{test: "quits", at: "controller quits", want: []string{"controller quits", "exited at once", "exit status 3", "giving up"},
			log: "giving up", lifecycle: []string{"controller:start", "controller:crash"}},
		{test: "mute", at: "controller mute", want: []string{"controller mute", "never became ready within 2s", "^READY$"},
			log: "--- sieve: starting", lifecycle: []string{"controller:start", "controller:kill"}},
		{test: "late", at: "wait configmap/e2e/never", want: []string{"wait", "configmap/e2e/never", "timed out after 1s"}, workload: true,
			log: "READY", lifecycle: []string{"controller:start", "controller:kill"}},
		{test: "refused", at: "apply `\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: Not_A_Name}", want: []string{"apply", "Not_A_Name", "Invalid"}, workload: true,
			log: "READY", lifecycle: []string{"controller:start", "controller:kill"}},
	}
	for _, c := range cases {
		t.Run(c.test, func(t *testing.T) {
			r := execute(t, c.test, nil)
			err := r.err
			if c.workload {
				if r.err != nil {
					t.Fatalf("run: %v (want only the workload to fail)", r.err)
				}
				err = r.out.WorkloadErr
			}
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if pos := sessiontest.Position(t, specFile, c.at); !strings.HasPrefix(msg, pos+": ") {
				t.Errorf("error %q does not start with the spec position %s", msg, pos)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not say %q", msg, w)
				}
			}
			b, lerr := os.ReadFile(filepath.Join(r.dir, "controller.log"))
			switch {
			case lerr != nil:
				t.Errorf("no controller log: %v", lerr)
			case !strings.Contains(string(b), c.log):
				t.Errorf("controller log does not hold %q:\n%s", c.log, b)
			}
			if c.workload {
				checkFailedStep(t, r, msg)
			}
			if lc := r.lifecycle(); !slices.Equal(lc, c.lifecycle) {
				t.Errorf("lifecycle in the trace: %v, want %v", lc, c.lifecycle)
			}
		})
	}
}

// checkFailedStep checks that the trace ends the failed step with its
// error and position.
func checkFailedStep(t *testing.T, r *run, msg string) {
	t.Helper()
	steps := r.entries(trace.Step, "")
	if len(steps) == 0 {
		t.Fatal("no step in the trace")
	}
	last := steps[len(steps)-1]
	if last.Phase != "end" || last.Error != msg || !strings.HasPrefix(msg, last.Src) {
		t.Errorf("last step entry %+v, want the end of the failed step with its error", last)
	}
	if len(r.entries(trace.History, "")) == 0 {
		t.Error("the trace holds no history")
	}
}

// TestStepsSayWhatTheySaw runs the copy workload fault-free: the apply's
// end says the resourceVersion of the ConfigMap it wrote, and the wait's
// end one at least as high as the out-a that met its condition (the
// history entry an invariant's stretch must include, trace.Aligned).
func TestStepsSayWhatTheySaw(t *testing.T) {
	r := execute(t, "crash", nil)
	r.mustSucceed(t)
	var met string
	for _, e := range r.entries(trace.History, "configmap/e2e/out-a") {
		if met == "" && strings.Contains(string(e.Object), `"v":"1"`) {
			met = e.ResourceVersion
		}
	}
	in := r.entries(trace.History, "configmap/e2e/in-a")
	if met == "" || len(in) == 0 {
		t.Fatalf("the history has no in-a, or no out-a with v=1")
	}
	ends := map[string]trace.Entry{}
	for _, e := range r.entries(trace.Step, "") {
		if e.Phase == "end" {
			ends[e.What] = e
		}
	}
	if got := ends["apply"].Seen["configmap"]; got != in[0].ResourceVersion {
		t.Errorf("apply's end saw configmap %q, want in-a's first resourceVersion %s", got, in[0].ResourceVersion)
	}
	if got := ends["wait"].Seen["configmap"]; got == "" || rv(t, got) < rv(t, met) {
		t.Errorf("wait's end saw configmap %q, want at least %s (out-a with v=1)", got, met)
	}
}
