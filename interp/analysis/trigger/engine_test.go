package trigger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// fakeClock is a settable clock.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }

var epoch = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// TestEngine runs the scripts in testdata/*.txtar. Each archive has a plan
// (-- plan.json --), a script (-- script --) and the expected log
// (-- out --); SIEVE_UPDATE=1 rewrites the log. Script lines:
//
//	+DUR OP ...                 advance the fake clock by DUR, then do OP
//	start                       start the engine
//	tick                        let time-based triggers fire
//	endstale                    end the armed stale-off's window (EndStale)
//	restarted                   the killed controller's first request since (Restarted)
//	deliver|history VERB KEY [JSON]   a watch event (create, update, delete)
//	write VERB[/SUB] KEY CODE [JSON]  a controller write and its answer
//	get KEY CODE [JSON]         a controller read
//	send VERB KEY               a request about to be sent (Send): a read (get, list) or a write
//	exec NS/POD ARG...          an exec about to be answered (Call)
//	http STANDIN METHOD TARGET [NS/POD]  an HTTP request to a stand-in about to be answered (Call)
//
// The log has one line per fired action, then each action's status, Done
// and the next deadline.
func TestEngine(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			files := golden.Files(ar)
			got := runScript(t, files["plan.json"], string(files["script"]))
			golden.Check(t, f, ar, map[string][]byte{"out": got})
		})
	}
}

// runScript runs a script against an engine and returns the log.
func runScript(t *testing.T, planJSON []byte, script string) []byte {
	t.Helper()
	p, err := planfile.Decode(planJSON)
	if err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{now: epoch}
	e, err := New(p, Options{Clock: clock})
	if err != nil {
		return fmt.Appendf(nil, "error: %s\n", celMessageCut(err.Error()))
	}
	var log bytes.Buffer
	seq := int64(0)
	for n, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fired, err := step(e, clock, &seq, line)
		if err != nil {
			t.Fatalf("script line %d: %v", n+1, err)
		}
		for _, f := range fired {
			fmt.Fprintf(&log, "%s: action %d (%s) fired, seq %d\n", since(f.At), f.Action, f.Kind, f.Seq)
		}
	}
	writeStatus(&log, e)
	return log.Bytes()
}

// since formats a time relative to the epoch.
func since(at time.Time) string { return "t+" + at.Sub(epoch).String() }

// writeStatus appends the engine's record.
func writeStatus(log *bytes.Buffer, e *Engine) {
	for _, s := range e.Status() {
		if s.Fired {
			fmt.Fprintf(log, "status: action %d (%s): fired at %s, seq %d\n", s.Action, s.Kind, since(s.At), s.Seq)
		} else {
			fmt.Fprintf(log, "status: action %d (%s): not fired\n", s.Action, s.Kind)
		}
	}
	fmt.Fprintf(log, "done: %v\n", e.Done())
	if d, ok := e.Deadline(); ok {
		fmt.Fprintf(log, "deadline: %s\n", since(d))
	}
}

// step carries out one script line.
func step(e *Engine, clock *fakeClock, seq *int64, line string) ([]Fired, error) {
	f := strings.Fields(line)
	if strings.HasPrefix(f[0], "+") {
		d, err := time.ParseDuration(f[0][1:])
		if err != nil {
			return nil, err
		}
		clock.now = clock.now.Add(d)
		line = strings.TrimSpace(line[len(f[0]):])
		f = f[1:]
	}
	if len(f) == 0 {
		return nil, fmt.Errorf("no operation")
	}
	switch f[0] {
	case "start":
		return e.Start(), nil
	case "tick":
		return e.Tick(), nil
	case "endstale":
		return e.EndStale(), nil
	case "restarted":
		e.Restarted(clock.now)
		return nil, nil
	case "exec", "http":
		c, err := call(f)
		if err != nil {
			return nil, err
		}
		return e.Call(c), nil
	case "send":
		if len(f) != 3 {
			return nil, fmt.Errorf("bad send %q", line)
		}
		key, err := parseKey(f[2])
		if err != nil {
			return nil, err
		}
		return e.Send(&trace.Entry{Time: clock.now, Type: trace.Request, Key: &key, Verb: f[1]}), nil
	}
	ent, err := entry(f, line)
	if err != nil {
		return nil, err
	}
	*seq++
	ent.Seq, ent.Time = *seq, clock.now
	return e.Observe(ent), nil
}

// call parses a call line: "exec NS/POD ARG..." or "http STANDIN METHOD
// TARGET [NS/POD]".
func call(f []string) (observe.Call, error) {
	if f[0] == "exec" && len(f) >= 3 {
		ns, pod, _ := strings.Cut(f[1], "/")
		return observe.ExecCall(ns, pod, f[2:]), nil
	}
	if f[0] == "http" && (len(f) == 4 || len(f) == 5) {
		c := trace.Conn{Standin: f[1]}
		if len(f) == 5 {
			c.Pod = f[4]
		}
		return observe.HTTPCall(c, f[2], f[3]), nil
	}
	return observe.Call{}, fmt.Errorf("bad call %q", strings.Join(f, " "))
}

// eventTypes maps script verbs to watch event types.
var eventTypes = map[string]string{"create": "ADDED", "update": "MODIFIED", "delete": "DELETED"}

// entry parses an observation line into a trace entry: "deliver|history
// VERB KEY [OBJECT]", "write VERB[/SUB] KEY CODE [OBJECT]" or "get|list KEY
// CODE" (a list's key has no name).
func entry(f []string, line string) (*trace.Entry, error) {
	if len(f) < 3 {
		return nil, fmt.Errorf("short line %q", line)
	}
	keyField, codeField := 2, 3
	if f[0] == "get" || f[0] == "list" {
		keyField, codeField = 1, 2
	}
	key, err := parseKey(f[keyField])
	if err != nil {
		return nil, err
	}
	obj := json.RawMessage(nil)
	if i := strings.Index(line, "{"); i >= 0 {
		obj = json.RawMessage(line[i:])
	}
	switch f[0] {
	case "deliver", "history":
		typ := trace.Delivery
		if f[0] == "history" {
			typ = trace.History
		}
		return &trace.Entry{Type: typ, Key: &key, Event: eventTypes[f[1]], Object: obj}, nil
	case "write", "get", "list":
		verb, sub := f[0], ""
		if f[0] == "write" {
			verb, sub, _ = strings.Cut(f[1], "/")
		}
		if len(f) <= codeField {
			return nil, fmt.Errorf("no status code in %q", line)
		}
		code, err := strconv.Atoi(f[codeField])
		if err != nil {
			return nil, fmt.Errorf("code: %w", err)
		}
		return &trace.Entry{Type: trace.Request, Key: &key, Verb: verb, Subresource: sub, Code: code, Body: obj, Response: obj}, nil
	}
	return nil, fmt.Errorf("unknown op %q", f[0])
}

// parseKey parses kind/namespace/name.
func parseKey(s string) (trace.Key, error) {
	p := strings.Split(s, "/")
	if len(p) != 3 {
		return trace.Key{}, fmt.Errorf("key %q: want kind/namespace/name", s)
	}
	return trace.Key{Kind: p[0], Namespace: p[1], Name: p[2]}, nil
}

// celMessageCut drops what follows a quoted CEL expression in an error
// message: CEL's own wording is not ours to pin in goldens.
func celMessageCut(msg string) string {
	i := strings.Index(msg, `where "`)
	if i < 0 {
		return msg
	}
	j := strings.Index(msg[i+len(`where "`):], `"`)
	if j < 0 {
		return msg
	}
	return msg[:i+len(`where "`)+j+1] + ": (CEL's message)"
}
