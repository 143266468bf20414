package cli

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/sievetool/sieve/interp/formats/results"
)

// progressDisplay shows the progress of `sieve run` on stderr. On a
// terminal it keeps one status line (plans done of total, findings so far,
// estimated time left) under the progress messages, rewriting it in place;
// elsewhere it writes the messages as plain lines and no status line.
type progressDisplay struct {
	w   io.Writer
	tty bool

	mu       sync.Mutex
	total    int
	done     int
	findings int
	started  time.Time
	shown    bool
}

// newProgress is the progress display for g (nothing with -q).
func newProgress(g *globals) *progressDisplay {
	if g.quiet {
		return &progressDisplay{w: io.Discard}
	}
	return &progressDisplay{w: g.stderr, tty: isTerminal(g.stderr)}
}

// Write writes progress messages (whole lines) above the status line.
func (p *progressDisplay) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	if _, err := fmt.Fprint(p.w, "sieve: "+termText(string(b))); err != nil {
		return 0, err
	}
	p.draw()
	return len(b), nil
}

// planned starts counting: total plans are about to run. The status line
// first shows under the next message, the pipeline's "N plans to run", so
// that it never comes before the count it counts down.
func (p *progressDisplay) planned(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.done, p.findings, p.started = total, 0, 0, time.Now()
}

// result counts one finished plan.
func (p *progressDisplay) result(r *results.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.findings += len(r.Findings)
	p.clear()
	p.draw()
}

// end removes the status line.
func (p *progressDisplay) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	p.total = 0
}

// clear erases the status line if it is shown.
func (p *progressDisplay) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// draw writes the status line (no newline) on a terminal.
func (p *progressDisplay) draw() {
	if !p.tty || p.total == 0 {
		return
	}
	fmt.Fprintf(p.w, "sieve: %s", p.status())
	p.shown = true
}

// status is the status line's text.
func (p *progressDisplay) status() string {
	s := fmt.Sprintf("%d/%d plans done, %d %s", p.done, p.total, p.findings, plural(p.findings, "finding", "findings"))
	if p.done > 0 && p.done < p.total {
		per := time.Since(p.started) / time.Duration(p.done)
		eta := per * time.Duration(p.total-p.done)
		s += fmt.Sprintf(", about %s left", eta.Round(time.Second))
	}
	return s
}
