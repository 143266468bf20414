package trace_test

import (
	"bytes"
	"errors"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// full answers every write with ENOSPC and counts the writes.
type full struct{ writes int }

func (f *full) Write([]byte) (int, error) {
	f.writes++
	return 0, &pathError{}
}

type pathError struct{}

func (*pathError) Error() string { return "write /r/trace.jsonl: no space left on device" }
func (*pathError) Unwrap() error { return syscall.ENOSPC }

// TestWriterStopsAtFirstError: after a failed write, a trace writer
// writes nothing more and returns the first error, the same value, so
// that it is reported once.
func TestWriterStopsAtFirstError(t *testing.T) {
	f := &full{}
	w := trace.NewWriter(f, nil)
	_, first := w.Add(trace.Entry{Type: trace.Step})
	_, second := w.Add(trace.Entry{Type: trace.Step})
	switch {
	case !errors.Is(first, syscall.ENOSPC):
		t.Fatalf("first write: %v, want ENOSPC", first)
	case second != first:
		t.Errorf("second write: %v, want the first error itself", second)
	case f.writes != 1:
		t.Errorf("%d writes reached the file, want 1", f.writes)
	}
}

// TestAppEntriesRoundTrip writes a relayed connection's entries and
// reads them back unchanged.
func TestAppEntriesRoundTrip(t *testing.T) {
	at := time.Date(2026, 12, 2, 10, 0, 0, 5, time.UTC)
	done := at.Add(time.Millisecond)
	conn := trace.Conn{ID: 3, Standin: "pods app=agent", Addr: "10.130.0.1:9090", Pod: "e2e/agent-0"}
	closed := conn
	closed.Sent, closed.Received, closed.End = 120, 4096, trace.ConnReset
	in := []trace.Entry{
		{Time: at, Type: trace.Connection, What: "open", Conn: &conn},
		{Time: at, Type: trace.HTTP, Conn: &conn, Done: &done, HTTP: &trace.Exchange{N: 1, Method: "POST", Target: "/members?x=1",
			Host: "db:5000", RequestHeaders: []string{"Content-Type"}, RequestBody: "{\"a\":1}", RequestBytes: 7, Status: 503,
			ResponseHeaders: []string{"Content-Length"}, ResponseBody: "down\n", ResponseBytes: 5}},
		{Time: done, Type: trace.Connection, What: "close", Conn: &closed, Message: "the stand-in reset it"},
	}
	var b bytes.Buffer
	b.WriteString("{\"sieveTrace\":1}\n")
	w := trace.NewWriter(&b, nil)
	for _, e := range in {
		if _, err := w.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	got, err := trace.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range in {
		in[i].Seq = int64(i + 1)
	}
	if !reflect.DeepEqual(got.Entries, in) {
		t.Errorf("read back\n%+v\nwant\n%+v", got.Entries, in)
	}
	if s := got.Entries[1].HTTP.String(); s != "POST /members?x=1 -> 503" {
		t.Errorf("exchange named %q", s)
	}
}
