package report

import (
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// TestTimelineAppCalls draws the controller's calls to a stand-in in a
// lane of their own, which a trace without them does not get: the
// connection's opening, its HTTP exchange and its reset, each with a tip.
func TestTimelineAppCalls(t *testing.T) {
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	conn := &trace.Conn{ID: 1, Standin: "db", Addr: "127.2.0.1:5000"}
	reset := &trace.Conn{ID: 1, Standin: "db", Addr: "127.2.0.1:5000", End: trace.ConnReset}
	api := []trace.Entry{
		{Seq: 1, Time: at, Type: trace.Controller, What: "start"},
		{Seq: 5, Time: at.Add(4 * time.Second), Type: trace.Request, Verb: "create", Key: &trace.Key{Kind: "configmap", Namespace: "e2e", Name: "out-a"}, Code: 201},
	}
	calls := []trace.Entry{
		{Seq: 2, Time: at.Add(time.Second), Type: trace.Connection, What: "open", Conn: conn},
		{Seq: 3, Time: at.Add(2 * time.Second), Type: trace.HTTP, Conn: conn, HTTP: &trace.Exchange{N: 1, Method: "GET", Target: "/members", Status: 200}},
		{Seq: 4, Time: at.Add(3 * time.Second), Type: trace.Connection, What: "close", Conn: reset, Message: "the stand-in reset it"},
	}
	svg := TimelineSVG(&trace.Trace{Entries: append(api, calls...)}, "run", nil, results.Timing{})
	for _, want := range []string{">application</text>", "#3 db: GET /members -&gt; 200", "#2 connection 1 to db opened",
		"#4 connection 1 to db ended: reset (the stand-in reset it)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the timeline lacks %q:\n%s", want, svg)
		}
	}
	if n := strings.Count(svg, `class="call"`); n != 3 {
		t.Errorf("%d calls drawn, want 3", n)
	}
	if svg := TimelineSVG(&trace.Trace{Entries: api}, "run", nil, results.Timing{}); strings.Contains(svg, "application") {
		t.Errorf("a trace without calls to stand-ins has an application lane:\n%s", svg)
	}
}

// TestTimelineExplored draws an explored patch step as a step of its own
// kind with its operation in its tip, and one the API server refused
// apart, with its answer; a step of the workload's own stays grey.
func TestTimelineExplored(t *testing.T) {
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	step := func(seq int64, i int, phase, msg string) trace.Entry {
		return trace.Entry{Seq: seq, Time: at.Add(time.Duration(seq) * time.Second), Type: trace.Step, Workload: "w", Index: i, Phase: phase, What: "patch", Message: msg}
	}
	svg := TimelineSVG(&trace.Trace{Entries: []trace.Entry{
		step(1, 0, "start", ""), step(2, 0, "end", ""),
		step(3, 1, "start", trace.Explored+"spec.replicas bound 1"), step(4, 1, "end", ""),
		step(5, 2, "start", trace.Explored+"spec.storage quantity \"2Gi\""), step(6, 2, "end", trace.Refused+"spec.storage: Invalid value: immutable"),
	}}, "run", nil, results.Timing{})
	for _, want := range []string{`<g class="step"><rect`, `<g class="step explored"><rect`, `<g class="step explored refused"><rect`,
		"w step 2 (): explored: spec.replicas bound 1</title>",
		"w step 3 (): explored: spec.storage quantity &#34;2Gi&#34;: refused: spec.storage: Invalid value: immutable</title>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the timeline lacks %q:\n%s", want, svg)
		}
	}
}
