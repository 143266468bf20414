package trace

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/sievetool/sieve/interp/internal/nofollow"
	"github.com/sievetool/sieve/lang/input"
)

// Writer appends entries to a trace file, assigning sequence numbers. It is
// safe for concurrent use; each entry is written and flushed as one line, so
// an interrupted run leaves a readable prefix. After a failed write (a full
// disk) it writes nothing more and every Add returns that first error, the
// same value, so that a caller can report it once.
type Writer struct {
	mu  sync.Mutex
	w   *bufio.Writer
	c   io.Closer
	seq int64
	err error // the first write error
}

// Create creates a trace file at path and writes its header.
func Create(path string, h Header) (*Writer, error) {
	f, err := nofollow.Create(path)
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	w := NewWriter(f, f)
	h.Trace = Version
	if err := w.line(h); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// NewWriter writes a trace to w without a header (for tests and pipes);
// c, if not nil, is closed by Close.
func NewWriter(w io.Writer, c io.Closer) *Writer {
	return &Writer{w: bufio.NewWriter(w), c: c}
}

// Add assigns e the next sequence number, writes it and returns the number.
func (w *Writer) Add(e Entry) (int64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seq++
	e.Seq = w.seq
	return e.Seq, w.lineLocked(e)
}

func (w *Writer) line(v any) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lineLocked(v)
}

func (w *Writer) lineLocked(v any) error {
	if w.err != nil {
		return w.err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	b = append(b, '\n')
	if _, err = w.w.Write(b); err == nil {
		err = w.w.Flush()
	}
	if err != nil {
		w.err = fmt.Errorf("trace: %w", err)
	}
	return w.err
}

// Close closes the underlying file.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.c == nil {
		return nil
	}
	return w.c.Close()
}

// Trace is a trace read into memory.
type Trace struct {
	Header  Header
	Entries []Entry
}

// Read reads a trace file. A truncated last line (an interrupted run) is
// dropped; any other malformed line is an error naming its line number.
func Read(path string) (*Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	defer f.Close()
	t, err := Decode(input.Reader(f, "", input.TraceLimit))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Decode reads a trace (header line first) from r.
func Decode(r io.Reader) (*Trace, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	t := &Trace{}
	var lines [][]byte
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("trace: empty file (no header line)")
	}
	if err := json.Unmarshal(lines[0], &t.Header); err != nil || t.Header.Trace == 0 {
		return nil, fmt.Errorf("trace: line 1: not a sieve trace header")
	}
	if t.Header.Trace != Version {
		return nil, fmt.Errorf("trace: version %d, this sieve reads version %d", t.Header.Trace, Version)
	}
	for i, l := range lines[1:] {
		var e Entry
		if err := json.Unmarshal(l, &e); err != nil {
			if i == len(lines)-2 {
				break // interrupted while writing the last line
			}
			return nil, fmt.Errorf("trace: line %d: %w", i+2, input.JSONError(l, err))
		}
		t.Entries = append(t.Entries, e)
	}
	return t, nil
}
