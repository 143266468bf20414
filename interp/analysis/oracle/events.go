package oracle

import (
	"fmt"
	"strings"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// stepID names a workload step.
type stepID struct {
	workload string
	index    int
}

// failedSteps returns the steps that failed in any of the runs: their
// failure in a test run is not blamed on the plan.
func failedSteps(ts []*trace.Trace) map[stepID]bool {
	out := map[stepID]bool{}
	for _, t := range ts {
		for i := range t.Entries {
			e := &t.Entries[i]
			if e.Type == trace.Step && e.Phase == "end" && e.Error != "" {
				out[stepID{e.Workload, e.Index}] = true
			}
		}
	}
	return out
}

// checkEvents reports controller panics and crashes the plan did not cause,
// failed and timed-out workload steps (except those in excused), and a
// workload that never finished.
func (o *Oracle) checkEvents(t *trace.Trace, excused map[stepID]bool) []*Finding {
	var fs []*Finding
	killed := false
	open := map[stepID]*trace.Entry{}
	for i := range t.Entries {
		e := &t.Entries[i]
		switch e.Type {
		case trace.Controller:
			var f *Finding
			f, killed = controllerFinding(e, killed)
			if f != nil {
				fs = append(fs, f)
			}
		case trace.Step:
			if f := stepFinding(e, open, excused); f != nil {
				fs = append(fs, f)
			}
		}
	}
	return append(fs, incomplete(open)...)
}

// controllerFinding judges one controller entry. The controller runner
// records a process it killed (for the plan, or at the end of the run) as
// "kill"; any other end ("exit", "crash") is unexpected, unless it follows a
// "kill" or "stop" entry before the next start. A panic never is expected.
func controllerFinding(e *trace.Entry, killed bool) (*Finding, bool) {
	switch e.What {
	case "kill", "stop":
		return nil, true
	case "start", "restart":
		return nil, false
	case "panic":
		return &Finding{Check: CheckPanic, Seq: e.Seq,
			Message: "the controller panicked: " + firstLine(e.Message)}, killed
	case "crash", "exit":
		code := 0
		if e.ExitCode != nil {
			code = *e.ExitCode
		}
		if killed {
			return nil, killed
		}
		msg := fmt.Sprintf("the controller exited with code %d without the plan stopping it", code)
		if e.Message != "" {
			msg += ": " + firstLine(e.Message)
		}
		return &Finding{Check: CheckCrash, Seq: e.Seq, Message: msg}, killed
	}
	return nil, killed
}

// stepFinding tracks open steps and judges a step's end: a failed wait
// step (or an error that says so) is a timeout.
func stepFinding(e *trace.Entry, open map[stepID]*trace.Entry, excused map[stepID]bool) *Finding {
	id := stepID{e.Workload, e.Index}
	if e.Phase == "start" {
		open[id] = e
		return nil
	}
	delete(open, id)
	if e.Error == "" || excused[id] {
		return nil
	}
	c, what := CheckStep, "failed"
	if e.What == "wait" || isTimeout(e.Error) {
		c, what = CheckTimeout, "timed out"
	}
	return &Finding{Check: c, Seq: e.Seq, Src: e.Src,
		Message: fmt.Sprintf("workload %s step %d %s: %s", e.Workload, e.Index+1, what, firstLine(e.Error))}
}

// incomplete reports steps that started and never ended.
func incomplete(open map[stepID]*trace.Entry) []*Finding {
	var fs []*Finding
	for id, e := range open {
		fs = append(fs, &Finding{Check: CheckIncomplete, Seq: e.Seq, Src: e.Src,
			Message: fmt.Sprintf("workload %s step %d started and never finished (the run was cut short)", id.workload, id.index+1)})
	}
	return fs
}

func isTimeout(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "timeout") || strings.Contains(m, "timed out") || strings.Contains(m, "deadline exceeded")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
