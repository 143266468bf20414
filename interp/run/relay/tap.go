package relay

import (
	"errors"
	"io"
	"sync"
)

// tapLimit bounds the bytes a tap holds for its reader: past it, the
// copy is given up (the relay goes on).
const tapLimit = 8 << 20

// errOverflow is what a tap's reader gets once the copy was given up.
var errOverflow = errors.New("more than 8 MiB at once not yet parsed: the rest of the connection is not recorded as HTTP")

// tap is a copy of one direction of a connection for a parser. Write
// never blocks and never fails: it drops the bytes once the reader
// stopped or the copy overflowed.
type tap struct {
	mu      sync.Mutex
	cond    sync.Cond
	buf     []byte
	eof     bool  // the writer is done
	err     error // the copy was given up
	stopped bool  // the reader is done
}

func newTap() *tap {
	t := &tap{}
	t.cond.L = &t.mu
	return t
}

// Write appends p for the reader.
func (t *tap) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.stopped || t.err != nil || t.eof:
	case len(t.buf)+len(p) > tapLimit:
		t.buf, t.err = nil, errOverflow
		t.cond.Broadcast()
	default:
		t.buf = append(t.buf, p...)
		t.cond.Broadcast()
	}
	return len(p), nil
}

// Close tells the reader that no more bytes come: it reads io.EOF after
// the ones it holds.
func (t *tap) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.eof = true
	t.cond.Broadcast()
}

// Stop drops what the tap holds and what comes: the reader is done.
func (t *tap) Stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped, t.buf = true, nil
}

// Read waits for bytes, the writer's end or the copy's failure.
func (t *tap) Read(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(t.buf) == 0 && !t.eof && t.err == nil {
		t.cond.Wait()
	}
	switch {
	case t.err != nil:
		return 0, t.err
	case len(t.buf) == 0:
		return 0, io.EOF
	}
	n := copy(p, t.buf)
	t.buf = t.buf[n:]
	if len(t.buf) == 0 {
		t.buf = nil
	}
	return n, nil
}
