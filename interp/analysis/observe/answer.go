package observe

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// AnswerOf is the whole answer to the call trace entry e records (CallOf),
// as a stale plan gives it again, or nil when the trace does not hold it
// whole: an HTTP response (its status, the values of its
// trace.AnswerHeaders, its body if no more than trace.AnswerLimit bytes
// of valid UTF-8), or what an exec the proxy answered wrote and its exit
// code.
func AnswerOf(e *trace.Entry) *planfile.Answer {
	if e.Type == trace.HTTP {
		x := e.HTTP
		if x == nil || x.Status == 0 || e.Error != "" || !trace.Whole(x.ResponseBody, x.ResponseBytes) {
			return nil
		}
		return &planfile.Answer{Status: x.Status, Headers: x.ResponseValues, Body: x.ResponseBody}
	}
	o := e.Output
	exit, ok := execExit(e)
	if !ok || o == nil || !trace.Whole(o.Stdout, o.StdoutBytes) || !trace.Whole(o.Stderr, o.StderrBytes) {
		return nil
	}
	return &planfile.Answer{Exit: exit, Stdout: o.Stdout, Stderr: o.Stderr}
}

// HTTPAnswer is the answer of an HTTP response a run read whole: nil,
// as AnswerOf, when its body is more than trace.AnswerLimit bytes or not
// valid UTF-8.
func HTTPAnswer(status int, values map[string]string, body string) *planfile.Answer {
	if !held(body) {
		return nil
	}
	return &planfile.Answer{Status: status, Headers: values, Body: body}
}

// ExecAnswer is the answer of an exec a run read whole: nil, as
// AnswerOf, when an output is more than trace.AnswerLimit bytes or not
// valid UTF-8.
func ExecAnswer(exit int, stdout, stderr string) *planfile.Answer {
	if !held(stdout) || !held(stderr) {
		return nil
	}
	return &planfile.Answer{Exit: exit, Stdout: stdout, Stderr: stderr}
}

// held reports whether a trace holds s whole (trace.Whole of its excerpt).
func held(s string) bool {
	return len(s) <= trace.AnswerLimit && utf8.ValidString(s) && trace.Whole(s, int64(len(s)))
}

// AnswerChanged reports whether a call answered cur changed the answer of
// its kind: the previous equal call's answer prev is whole (not nil) and
// differs from cur. A generated stale plan gives prev in cur's place; its
// trigger counts such changes (a call leaf with Changed).
func AnswerChanged(prev, cur *planfile.Answer) bool {
	return prev != nil && (cur == nil || planfile.Canonical(prev) != planfile.Canonical(cur))
}

// execExit is the exit code of an exec that was served, from the status
// it ended with; false when it was not served or failed otherwise.
func execExit(e *trace.Entry) (int, bool) {
	var st struct {
		Status  string `json:"status"`
		Reason  string `json:"reason"`
		Details struct {
			Causes []struct {
				Type    string `json:"reason"`
				Message string `json:"message"`
			} `json:"causes"`
		} `json:"details"`
	}
	if e.Code != 101 || json.Unmarshal(e.Response, &st) != nil {
		return 0, false
	}
	if st.Status == "Success" {
		return 0, true
	}
	for _, c := range st.Details.Causes {
		if n, err := strconv.Atoi(c.Message); err == nil && st.Reason == "NonZeroExitCode" && c.Type == "ExitCode" {
			return n, true
		}
	}
	return 0, false
}

// ChangedLeaf returns the call leaf that matches the calls equal to c
// once answered, when their answer changed (AnswerChanged): the count-th
// such change from when it is armed.
func (c Call) ChangedLeaf(count int) *planfile.Trigger {
	t := c.Leaf(count)
	t.Changed = true
	return t
}
