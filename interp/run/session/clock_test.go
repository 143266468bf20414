package session

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// fakeTime is a clock's time source that moves only when told.
type fakeTime struct{ t time.Time }

func (f *fakeTime) now() time.Time       { return f.t }
func (f *fakeTime) pass(d time.Duration) { f.t = f.t.Add(d) }

// TestClockPhasesAddUp drives a clock through a run as Execute and
// judgeRun do (trace entries for the steps and faults) and checks that
// the phases follow one another, none negative, and add up to the run's
// time, while the fault windows overlap them.
func TestClockPhasesAddUp(t *testing.T) {
	ft := &fakeTime{t: time.Unix(1000, 0)}
	c := newClock(results.PhaseReset, ft.now)
	step := func(kind, phase string) {
		c.observe(&trace.Entry{Type: trace.Step, What: kind, Phase: phase, Src: "x.sieve:3:2"})
	}
	fault := func(what string) {
		c.observe(&trace.Entry{Type: trace.Fault, What: what, Key: &trace.Key{Kind: "pod", Namespace: "default", Name: "web-0"}})
	}
	ft.pass(150 * time.Millisecond)
	c.enter(results.PhaseSetup, "")
	ft.pass(200 * time.Millisecond)
	c.enter(results.PhaseStart, "")
	ft.pass(900 * time.Millisecond)
	step("apply", "start")
	ft.pass(50 * time.Millisecond)
	step("apply", "end")
	step("wait", "start")
	fault("stale-on")
	fault("crash")
	ft.pass(700 * time.Millisecond)
	c.closeWindow(results.WindowRestart, "") // ready again
	ft.pass(300 * time.Millisecond)
	fault("stale-off")
	step("wait", "end")
	c.enter(results.PhaseSettle, "after the workload")
	fault("hold") // never released: ends with the run
	ft.pass(2 * time.Second)
	c.enter(results.PhaseStop, "")
	ft.pass(100 * time.Millisecond)
	c.enter(results.PhaseJudge, "")
	ft.pass(40 * time.Millisecond)
	tm := c.stop()

	var names []string
	at := 0.0
	for _, p := range tm.Phases {
		names = append(names, p.Phase)
		if p.Seconds < 0 {
			t.Errorf("phase %s lasted %gs", p.Phase, p.Seconds)
		}
		if math.Abs(p.At-at) > 1e-9 {
			t.Errorf("phase %s began at %gs, want %gs (right after the one before)", p.Phase, p.At, at)
		}
		at += p.Seconds
	}
	want := []string{"reset", "setup", "start", "apply", "wait", "settle", "stop", "judge"}
	if !slices.Equal(names, want) {
		t.Errorf("phases %v, want %v", names, want)
	}
	if total := ft.t.Sub(c.start).Seconds(); math.Abs(tm.Seconds()-total) > 1e-9 {
		t.Errorf("phases add up to %gs, the run took %gs", tm.Seconds(), total)
	}
	wins := map[string]float64{}
	for _, w := range tm.Windows {
		wins[w.Phase] = w.Seconds
	}
	if wins["stale"] != 1 || wins["restart"] != 0.7 || wins["hold"] != 2.14 {
		t.Errorf("windows %+v, want stale 1s, restart 0.7s, hold 2.14s", tm.Windows)
	}
}

// TestClockUnmatchedClose checks that closing a window never opened does
// nothing, and that a release naming another key still closes the hold.
func TestClockUnmatchedClose(t *testing.T) {
	ft := &fakeTime{t: time.Unix(1000, 0)}
	c := newClock(results.PhaseSetup, ft.now)
	c.closeWindow(results.WindowStale, "x")
	c.openWindow(results.WindowHold, "pod/default/a")
	ft.pass(time.Second)
	c.closeWindow(results.WindowHold, "pod/default/*")
	ft.pass(time.Second)
	tm := c.stop()
	if len(tm.Windows) != 1 || tm.Windows[0].Seconds != 1 {
		t.Errorf("windows %+v, want one hold of 1s", tm.Windows)
	}
	if tm.Seconds() != 2 {
		t.Errorf("phases add up to %gs, want 2s", tm.Seconds())
	}
}
