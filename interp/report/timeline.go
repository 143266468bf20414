package report

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// Timeline geometry, in SVG user units.
const (
	tlWidth  = 1000
	tlLeft   = 120
	tlRight  = 20
	tlTop    = 28
	tlLane   = 26
	tlBottom = 10
)

// laneNames are the lanes of the timeline, top to bottom; then the
// application lane (laneApp) only when the trace holds calls to
// stand-ins, and the phases lane (the last) only when the run's timing
// is known.
func laneNames() []string {
	return []string{"workload", "controller writes", "cluster events", "deliveries", "controller"}
}

// laneApp is the index of the lane of the controller's calls to its
// application (stand-ins).
const laneApp = 5

// timeline draws one run's trace as an inline SVG: workload steps as bars,
// controller writes, cluster events and deliveries as ticks, controller
// lifecycle events as dots, the injected fault as a red line and the trace
// entries named by findings (marks) as orange lines.
type timeline struct {
	lanes      []string
	b          strings.Builder
	min, max   float64
	bySeq      bool
	plotW      float64
	seqPos     map[int64]float64
	stepStarts map[[2]string]*trace.Entry
}

// TimelineSVG renders t; marks are trace sequence numbers to highlight;
// tm, if it has phases, is drawn in a lane of its own below the others:
// the run's phases as bars, its fault windows as thin bars beneath them.
func TimelineSVG(t *trace.Trace, title string, marks []int64, tm results.Timing) string {
	tl := &timeline{lanes: laneNames(), plotW: tlWidth - tlLeft - tlRight, seqPos: map[int64]float64{}, stepStarts: map[[2]string]*trace.Entry{}}
	tl.scale(t.Entries)
	if slices.ContainsFunc(t.Entries, func(e trace.Entry) bool { return e.Type == trace.Connection || e.Type == trace.HTTP }) {
		tl.lanes = append(tl.lanes, "application")
	}
	zero, timed := phaseZero(t, tm)
	timed = timed && !tl.bySeq
	if timed {
		tl.lanes = append(tl.lanes, "phases")
		tl.widen(zero, tm)
	}
	height := tlTop + len(tl.lanes)*tlLane + tlBottom
	fmt.Fprintf(&tl.b, `<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="100%%" role="img" aria-label="%s">`,
		tlWidth, height, html.EscapeString(title))
	fmt.Fprintf(&tl.b, `<title>%s</title>`, html.EscapeString(title))
	tl.frame(height)
	for i := range t.Entries {
		tl.entry(&t.Entries[i])
	}
	if timed {
		tl.phases(zero, tm)
	}
	for _, m := range marks {
		tl.mark(m, height)
	}
	tl.b.WriteString(`</svg>`)
	return tl.b.String()
}

// scale chooses the x axis: time when entries carry distinct times, else
// sequence numbers.
func (tl *timeline) scale(es []trace.Entry) {
	tl.min, tl.max = math.Inf(1), math.Inf(-1)
	var first time.Time
	distinct := false
	for i := range es {
		if i == 0 {
			first = es[i].Time
		} else if !es[i].Time.Equal(first) {
			distinct = true
		}
	}
	tl.bySeq = !distinct
	for i := range es {
		p := tl.raw(&es[i])
		tl.seqPos[es[i].Seq] = p
		tl.min, tl.max = math.Min(tl.min, p), math.Max(tl.max, p)
	}
	if len(es) == 0 {
		tl.min, tl.max = 0, 1
	}
	if tl.max <= tl.min {
		tl.max = tl.min + 1
	}
}

func (tl *timeline) raw(e *trace.Entry) float64 {
	if tl.bySeq {
		return float64(e.Seq)
	}
	return float64(e.Time.UnixNano()) / 1e9
}

// x maps an entry position to the plot.
func (tl *timeline) x(p float64) float64 {
	return tlLeft + (p-tl.min)/(tl.max-tl.min)*tl.plotW
}

func laneY(i int) float64 { return float64(tlTop + i*tlLane) }

// frame draws lane labels, lane backgrounds and the axis.
func (tl *timeline) frame(height int) {
	for i, n := range tl.lanes {
		y := laneY(i)
		fmt.Fprintf(&tl.b, `<rect class="lane" x="%d" y="%.0f" width="%.0f" height="%d" fill="%s"/>`,
			tlLeft, y, tl.plotW, tlLane-4, []string{"#f4f6f8", "#eef2f7"}[i%2])
		fmt.Fprintf(&tl.b, `<text x="%d" y="%.0f" font-size="11" text-anchor="end" fill="#333">%s</text>`,
			tlLeft-6, y+15, html.EscapeString(n))
	}
	tl.axis(height)
}

// axis draws about eight labelled ticks.
func (tl *timeline) axis(height int) {
	span := tl.max - tl.min
	step := niceStep(span / 8)
	for v := math.Ceil(tl.min/step) * step; v <= tl.max+1e-9; v += step {
		x := tl.x(v)
		fmt.Fprintf(&tl.b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ccc" stroke-width="0.5"/>`, x, tlTop-6, x, height-tlBottom)
		label := fmt.Sprintf("#%.0f", v)
		if !tl.bySeq {
			label = fmt.Sprintf("%.3gs", v-tl.min)
		}
		fmt.Fprintf(&tl.b, `<text x="%.1f" y="%d" font-size="10" text-anchor="middle" fill="#666">%s</text>`, x, tlTop-10, label)
	}
}

// niceStep rounds a raw step to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// entry draws one trace entry.
func (tl *timeline) entry(e *trace.Entry) {
	x := tl.x(tl.seqPos[e.Seq])
	switch e.Type {
	case trace.Step:
		tl.step(e, x)
	case trace.Request:
		if isWrite(e.Verb) {
			color := map[string]string{"create": "#2e7d32", "delete": "#c62828", "deletecollection": "#c62828"}[e.Verb]
			if color == "" {
				color = "#1565c0"
			}
			tl.tick(1, x, color, fmt.Sprintf("#%d %s %s → %d", e.Seq, e.Verb, keyString(e.Key), e.Code), "write")
		}
	case trace.History:
		tl.tick(2, x, eventColor(e.Event), fmt.Sprintf("#%d %s %s", e.Seq, e.Event, keyString(e.Key)), "event")
	case trace.Delivery:
		tl.tick(3, x, eventColor(e.Event), fmt.Sprintf("#%d delivered %s %s", e.Seq, e.Event, keyString(e.Key)), "delivery")
	case trace.Controller:
		tl.dot(x, e)
	case trace.Fault:
		tl.fault(x, e)
	case trace.Connection, trace.HTTP:
		tl.call(x, e)
	}
}

// call draws a call to a stand-in: a connection that opens (grey) or
// ends other than in order (red), an HTTP exchange (green, or red for a
// status of 500 or more or none).
func (tl *timeline) call(x float64, e *trace.Entry) {
	if e.Conn == nil {
		return
	}
	what := fmt.Sprintf("#%d connection %d to %s", e.Seq, e.Conn.ID, e.Conn.Standin)
	switch {
	case e.Type == trace.HTTP && e.HTTP != nil:
		color := "#2e7d32"
		if e.HTTP.Status == 0 || e.HTTP.Status >= 500 {
			color = "#c62828"
		}
		tl.tick(laneApp, x, color, fmt.Sprintf("#%d %s: %s", e.Seq, e.Conn.Standin, e.HTTP), "call")
	case e.What == "open":
		tl.tick(laneApp, x, "#b0bec5", what+" opened", "call")
	case e.What == "close" && e.Conn.End != trace.ConnEOF:
		tl.tick(laneApp, x, "#c62828", what+" ended: "+e.Conn.End+" ("+e.Message+")", "call")
	}
}

func isWrite(verb string) bool {
	switch verb {
	case "create", "update", "patch", "delete", "deletecollection":
		return true
	}
	return false
}

func eventColor(ev string) string {
	switch ev {
	case "ADDED":
		return "#2e7d32"
	case "DELETED":
		return "#c62828"
	}
	return "#78909c"
}

func keyString(k *trace.Key) string {
	if k == nil {
		return ""
	}
	return k.String()
}

// tick draws a thin mark in a lane.
func (tl *timeline) tick(lane int, x float64, color, tip, class string) {
	y := laneY(lane)
	fmt.Fprintf(&tl.b, `<rect class="%s" x="%.1f" y="%.0f" width="2" height="%d" fill="%s"><title>%s</title></rect>`,
		class, x-1, y+3, tlLane-10, color, html.EscapeString(tip))
}

// step draws a workload step as a bar from its start to its end.
func (tl *timeline) step(e *trace.Entry, x float64) {
	id := [2]string{e.Workload, fmt.Sprint(e.Index)}
	if e.Phase == "start" {
		tl.stepStarts[id] = e
		return
	}
	start := tl.stepStarts[id]
	x0 := x
	if start != nil {
		x0 = tl.x(tl.seqPos[start.Seq])
	}
	fill, tip, class := stepLook(start, e)
	y := laneY(0)
	fmt.Fprintf(&tl.b, `<g class="%s"><rect x="%.1f" y="%.0f" width="%.1f" height="%d" rx="2" fill="%s" stroke="#fff"><title>%s</title></rect>`,
		class, x0, y+3, math.Max(x-x0, 3), tlLane-10, fill, html.EscapeString(tip))
	if x-x0 > 16 {
		fmt.Fprintf(&tl.b, `<text x="%.1f" y="%.0f" font-size="10" fill="#fff">%d</text>`, x0+3, y+15, e.Index+1)
	}
	tl.b.WriteString(`</g>`)
}

// stepLook is how a step's bar looks, by its start and end entries: its
// colour, tip and class. Grey, red when it failed, orange when a wait
// timed out; an explored patch (its operation in its tip) indigo, purple
// when the API server refused it.
func stepLook(start, end *trace.Entry) (fill, tip, class string) {
	fill, tip, class = "#90a4ae", fmt.Sprintf("%s step %d (%s)", end.Workload, end.Index+1, end.Src), "step"
	if start != nil && strings.HasPrefix(start.Message, trace.Explored) {
		fill, tip, class = "#5c6bc0", tip+": "+start.Message, "step explored"
	}
	_, refused := end.Refusal()
	switch {
	case end.Error != "":
		fill, tip = "#e53935", tip+": "+end.Error
	case strings.HasPrefix(end.Message, "timed out"):
		fill, tip = "#fb8c00", tip+": "+end.Message
	case refused:
		fill, tip, class = "#ab47bc", tip+": "+end.Message, "step explored refused"
	case end.Message != "":
		tip += ": " + end.Message
	}
	return fill, tip, class
}

// dot draws a controller lifecycle event.
func (tl *timeline) dot(x float64, e *trace.Entry) {
	color := map[string]string{"start": "#2e7d32", "restart": "#1565c0", "kill": "#ef6c00", "stop": "#ef6c00"}[e.What]
	if color == "" {
		color = "#c62828"
	}
	tip := fmt.Sprintf("#%d controller %s", e.Seq, e.What)
	if e.Message != "" {
		tip += ": " + e.Message
	}
	fmt.Fprintf(&tl.b, `<circle class="controller-%s" cx="%.1f" cy="%.0f" r="5" fill="%s"><title>%s</title></circle>`,
		html.EscapeString(e.What), x, laneY(4)+tlLane/2-2, color, html.EscapeString(tip))
}

// fault draws the moment the fault fired across every lane.
func (tl *timeline) fault(x float64, e *trace.Entry) {
	bottom := laneY(len(tl.lanes))
	tip := fmt.Sprintf("#%d fault fired: %s %s", e.Seq, e.What, keyString(e.Key))
	if e.Message != "" {
		tip += ": " + e.Message
	}
	fmt.Fprintf(&tl.b, `<g class="fault"><line x1="%.1f" y1="%d" x2="%.1f" y2="%.0f" stroke="#d50000" stroke-width="2" stroke-dasharray="4 2"/>`,
		x, tlTop-4, x, bottom)
	anchor, dx := "start", 3.0
	if x > tlWidth-70 {
		anchor, dx = "end", -3
	}
	fmt.Fprintf(&tl.b, `<text x="%.1f" y="%d" font-size="10" font-weight="bold" fill="#d50000" text-anchor="%s">⚡ fault</text><title>%s</title></g>`,
		x+dx, tlTop+2, anchor, html.EscapeString(tip))
}

// mark highlights the trace entry a finding names.
func (tl *timeline) mark(seq int64, height int) {
	p, ok := tl.seqPos[seq]
	if !ok {
		return
	}
	x := tl.x(p)
	fmt.Fprintf(&tl.b, `<line class="finding-mark" x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ff9800" stroke-width="2"><title>finding at #%d</title></line>`,
		x, tlTop-4, x, height-tlBottom, seq)
}

// phaseZero is the time the phases of tm count from: the run's clock
// started before the reset, the trace's header when the setup began.
func phaseZero(t *trace.Trace, tm results.Timing) (float64, bool) {
	for _, p := range tm.Phases {
		if p.Phase == results.PhaseSetup && !t.Header.Started.IsZero() {
			return float64(t.Header.Started.UnixNano())/1e9 - p.At, true
		}
	}
	return 0, false
}

// widen stretches the axis over the phases (a reset before the first
// trace entry, judging after the last).
func (tl *timeline) widen(zero float64, tm results.Timing) {
	for _, p := range tm.Phases {
		tl.min, tl.max = math.Min(tl.min, zero+p.At), math.Max(tl.max, zero+p.At+p.Seconds)
	}
}

// phaseColors are the phases' colours; workload steps share one.
var phaseColors = map[string]string{
	results.PhaseReset: "#8d6e63", results.PhaseSetup: "#a1887f", results.PhaseStart: "#43a047", results.PhaseSettle: "#fbc02d",
	results.PhaseFinish: "#ff7043", results.PhaseConverge: "#8d6e63", results.PhaseStop: "#bdbdbd", results.PhaseJudge: "#7e57c2", "wait": "#29b6f6",
}

// phases draws the run's phases as bars and its fault windows beneath
// them, in the phases lane.
func (tl *timeline) phases(zero float64, tm results.Timing) {
	y := laneY(len(tl.lanes) - 1)
	for _, p := range tm.Phases {
		x0, x1 := tl.x(zero+p.At), tl.x(zero+p.At+p.Seconds)
		fill := phaseColors[p.Phase]
		if fill == "" {
			fill = "#90a4ae"
		}
		tip := fmt.Sprintf("%s %.2fs", p.Phase, p.Seconds)
		if p.What != "" {
			tip = fmt.Sprintf("%s (%s) %.2fs", p.Phase, p.What, p.Seconds)
		}
		fmt.Fprintf(&tl.b, `<g class="phase"><rect x="%.1f" y="%.0f" width="%.1f" height="%d" fill="%s" stroke="#fff" stroke-width="0.5"><title>%s</title></rect>`,
			x0, y+2, math.Max(x1-x0, 1), tlLane-12, fill, html.EscapeString(tip))
		if x1-x0 > 7*float64(len(p.Phase)) {
			fmt.Fprintf(&tl.b, `<text x="%.1f" y="%.0f" font-size="9" fill="#222">%s</text>`, x0+2, y+11, html.EscapeString(p.Phase))
		}
		tl.b.WriteString(`</g>`)
	}
	for _, w := range tm.Windows {
		x0, x1 := tl.x(zero+w.At), tl.x(zero+w.At+w.Seconds)
		tip := fmt.Sprintf("%s window %.2fs %s", w.Phase, w.Seconds, w.What)
		fmt.Fprintf(&tl.b, `<rect class="window" x="%.1f" y="%.0f" width="%.1f" height="4" fill="#d50000" opacity="0.7"><title>%s</title></rect>`,
			x0, y+tlLane-9, math.Max(x1-x0, 1), html.EscapeString(strings.TrimSpace(tip)))
	}
}
