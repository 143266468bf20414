package logcap

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"sync"
)

// DefaultLimit is the size a log keeps at most when neither the caller
// nor the environment (Env) says: 64 MiB.
const DefaultLimit int64 = 64 << 20

// Env is the environment variable that sets the limit in bytes.
const Env = "SIEVE_LOG_LIMIT"

// Limit returns the limit to use: n when positive, else the value of
// $SIEVE_LOG_LIMIT when it is a positive number of bytes, else
// DefaultLimit.
func Limit(n int64) int64 {
	if n > 0 {
		return n
	}
	if v, err := strconv.ParseInt(os.Getenv(Env), 10, 64); err == nil && v > 0 {
		return v
	}
	return DefaultLimit
}

// Writer writes a log to a file, up to a limit. The first half of the
// limit goes to the file as it comes. Past it, the Writer keeps only the
// latest half in memory and writes it at Close, after a line that says
// how many bytes were dropped between the two. It is safe for concurrent
// use.
type Writer struct {
	mu      sync.Mutex
	f       io.WriteCloser
	limit   int64
	head    int64  // the bytes written to f as they came
	last    byte   // the last byte written to f
	tail    []byte // past the head: the latest bytes, at most limit-limit/2 kept
	dropped int64  // bytes dropped from the front of tail
	closed  bool
}

// New returns a Writer to f that keeps at most limit bytes (see Limit).
func New(f io.WriteCloser, limit int64) *Writer {
	return &Writer{f: f, limit: Limit(limit), last: '\n'}
}

// Write writes p, or keeps it for Close once the head is full. Its
// errors are the file's, and fs.ErrClosed after Close.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return 0, fs.ErrClosed
	}
	n := len(p)
	if room := w.limit/2 - w.head; room > 0 {
		k := min(int64(len(p)), room)
		if _, err := w.f.Write(p[:k]); err != nil {
			return 0, err
		}
		w.head += k
		w.last = p[k-1]
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	w.tail = append(w.tail, p...)
	keep := int(w.limit - w.limit/2)
	if len(w.tail) > keep+keep/4 { // drop in batches: amortised linear
		cut := len(w.tail) - keep
		w.dropped += int64(cut)
		w.tail = append(w.tail[:0], w.tail[cut:]...)
	}
	return n, nil
}

// Close writes the kept tail, after a note line when bytes were dropped,
// and closes the file.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.closed = true
		if err := w.flush(); err != nil {
			_ = w.f.Close()
			return fmt.Errorf("log: %w", err)
		}
	}
	return w.f.Close()
}

// flush writes what Close writes before closing.
func (w *Writer) flush() error {
	keep := int(w.limit - w.limit/2)
	if len(w.tail) > keep {
		w.dropped += int64(len(w.tail) - keep)
		w.tail = w.tail[len(w.tail)-keep:]
	}
	if w.dropped > 0 {
		nl := ""
		if w.last != '\n' {
			nl = "\n"
		}
		note := fmt.Sprintf("%s--- sieve: log limit: %d bytes dropped here; the first %d and the last %d bytes are kept (raise the limit of %d bytes with %s=BYTES)\n",
			nl, w.dropped, w.head, len(w.tail), w.limit, Env)
		if _, err := io.WriteString(w.f, note); err != nil {
			return err
		}
	}
	_, err := w.f.Write(w.tail)
	w.tail = nil
	return err
}
