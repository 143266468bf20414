package controller

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"sync"
)

// tailLines is how many lines of output an error quotes.
const tailLines = 15

// logWriter writes the controller's output to the log file and watches its
// lines for panics and the readiness pattern.
type logWriter struct {
	mu      sync.Mutex
	out     io.Writer
	partial []byte
	tail    []string
	ready   *regexp.Regexp
	onReady func()
	onPanic func(line string)
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.out.Write(p); err != nil {
		return 0, err
	}
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		w.line(string(bytes.TrimRight(w.partial[:i], "\r")))
		w.partial = w.partial[i+1:]
	}
	return len(p), nil
}

func (w *logWriter) line(l string) {
	w.tail = append(w.tail, l)
	if len(w.tail) > tailLines {
		w.tail = w.tail[len(w.tail)-tailLines:]
	}
	if isPanic(l) && w.onPanic != nil {
		w.onPanic(l)
	}
	if w.ready != nil && w.onReady != nil && w.ready.MatchString(l) {
		w.onReady()
	}
}

// isPanic reports a Go panic or one that client-go's runtime handler
// caught and logged.
func isPanic(l string) bool {
	return strings.HasPrefix(l, "panic: ") || strings.Contains(l, "Observed a panic")
}

// lastLines returns the last lines of output (including an unterminated
// one), indented for an error message.
func (w *logWriter) lastLines() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	lines := append([]string(nil), w.tail...)
	if len(w.partial) > 0 {
		lines = append(lines, string(w.partial))
	}
	if len(lines) == 0 {
		return "  (no output)"
	}
	return "  " + strings.Join(lines, "\n  ")
}
