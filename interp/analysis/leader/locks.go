package leader

import (
	"maps"
	"sync"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// Locks follows the leader-election locks one controller reads and writes,
// from its requests and their answers (trace.Request entries, in the
// order the controller made them). It tells which of them are heartbeats
// (Request), whether the controller waits for a lock another process
// holds (Until), and which locks it holds (Held). The zero value is
// ready; it is safe for concurrent use.
type Locks struct {
	state Beats // the latest state of each lock, from the answers

	mu   sync.Mutex
	read map[trace.Key]seen   // locks whose latest request read a record with a holder
	held map[trace.Key]string // locks whose latest write named a holder, and that holder
}

// seen is a record the controller read, and when it first read it.
type seen struct {
	rec Record
	at  time.Time
}

// Request notes request e of the controller and reports whether it is a
// heartbeat. A heartbeat is a read of a lock that answers a record, or a
// write of a lock that only renews its record (Heartbeat, against the
// state the previous answer about the lock showed). A failed request is
// not, nor is a write that creates a lock, takes it over or changes
// anything else of it, nor a request about any other object.
func (l *Locks) Request(e *trace.Entry) bool {
	if e.Type != trace.Request || e.Key == nil || e.Key.Name == "" || !Lockable(e.Key.Kind) || e.Code < 200 || e.Code >= 300 {
		return false
	}
	key := *e.Key
	switch e.Verb {
	case "get":
		l.state.Beat(key, e.Response)
		rec, ok := Read(key.Kind, e.Response)
		l.noteRead(key, rec, ok, e.Time)
		return ok
	case "create", "update", "patch":
		l.noteRead(key, Record{}, false, e.Time) // it wrote the lock: it holds it, or let it go
		rec, _ := Read(key.Kind, e.Response)
		l.noteHeld(key, rec.Holder)
		return l.state.Beat(key, e.Response)
	case "delete":
		l.noteRead(key, Record{}, false, e.Time)
		l.noteHeld(key, "")
		l.state.Beat(key, nil)
	}
	return false
}

// noteRead remembers that the controller read rec from the lock key at
// at (ok false: no record it would wait for, or a write).
func (l *Locks) noteRead(key trace.Key, rec Record, ok bool, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !ok || rec.Holder == "" {
		delete(l.read, key)
		return
	}
	if s, was := l.read[key]; was && s.rec.Holder == rec.Holder && s.rec.Renew.Equal(rec.Renew) {
		return // the same record again: the controller waits since it first read it
	}
	if l.read == nil {
		l.read = map[trace.Key]seen{}
	}
	l.read[key] = seen{rec: rec, at: at}
}

// noteHeld remembers the holder that the controller's latest write of the
// lock key named ("": none, or it deleted the lock).
func (l *Locks) noteHeld(key trace.Key, holder string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if holder == "" {
		delete(l.held, key)
		return
	}
	if l.held == nil {
		l.held = map[trace.Key]string{}
	}
	l.held[key] = holder
}

// Held returns the locks whose latest write by the controller named a
// holder, each with that holder: what the controller held when it last
// wrote its locks.
func (l *Locks) Held() map[trace.Key]string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.held)
}

// Until returns until when the controller waits for a lock another
// process holds; zero when it waits for none. A controller waits for a
// lock when its latest request about it read a record that names a holder
// and it has not written the lock since. (client-go's leader election reads
// the lock every retry period and writes it only to renew it, or to take
// it over once the record has expired.)
//
// It waits, at most, until the record expires as the controller counts
// it, plus one more lease duration for the try that takes the lock over
// (a retry period is shorter than the lease). The record expires a lease
// duration after the later of its renewal and the controller's first read
// of it, since the holder's clock is not the controller's. Until returns
// the latest of these bounds over the controller's locks. A write ends the
// wait sooner: it is the evidence that the controller runs.
func (l *Locks) Until() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	var until time.Time
	for _, s := range l.read {
		from := s.at
		if s.rec.Renew.After(from) {
			from = s.rec.Renew
		}
		if u := from.Add(2 * s.rec.Duration); u.After(until) {
			until = u
		}
	}
	return until
}
