package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// events is a `go test -json` stream of two packages: a starts first and
// takes 5s with a test of 4s; b starts 1s in and ends last, at 9s. A
// build line and a test's output are in it too.
const events = `# github.com/sievetool/sieve/x
{"Time":"2026-12-06T10:00:00Z","Action":"start","Package":"github.com/sievetool/sieve/a"}
{"Time":"2026-12-06T10:00:01Z","Action":"start","Package":"github.com/sievetool/sieve/b"}
{"Time":"2026-12-06T10:00:01Z","Action":"run","Package":"github.com/sievetool/sieve/a","Test":"TestLong"}
{"Time":"2026-12-06T10:00:02Z","Action":"output","Package":"github.com/sievetool/sieve/a","Test":"TestLong","Output":"=== RUN TestLong\n"}
{"Time":"2026-12-06T10:00:05Z","Action":"pass","Package":"github.com/sievetool/sieve/a","Test":"TestLong","Elapsed":4}
{"Time":"2026-12-06T10:00:05Z","Action":"pass","Package":"github.com/sievetool/sieve/a","Elapsed":5}
{"Time":"2026-12-06T10:00:08Z","Action":"fail","Package":"github.com/sievetool/sieve/b","Test":"TestShort","Elapsed":0.5}
{"Time":"2026-12-06T10:00:09Z","Action":"fail","Package":"github.com/sievetool/sieve/b","Elapsed":8}
`

// TestRead finds each package's span and result, longest first, and each
// test's, and skips what is not an event.
func TestRead(t *testing.T) {
	got, err := read(strings.NewReader(events))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Packages) != 2 || got.Packages[0].Name != "github.com/sievetool/sieve/b" || got.Packages[0].Elapsed != 8 || got.Packages[0].Result != "fail" {
		t.Fatalf("packages %+v, want b (8s, fail) first", got.Packages)
	}
	if s := got.since(got.Packages[0].Start); s != 1 {
		t.Errorf("b starts %.1fs after the first event, want 1s", s)
	}
	if len(got.Tests) != 2 || got.Tests[0].Name != "github.com/sievetool/sieve/a TestLong" || got.Tests[0].Elapsed != 4 {
		t.Errorf("tests %+v, want a's TestLong (4s) first", got.Tests)
	}
}

// TestWrite lists the packages and the tests of at least -min, and names
// the last package to end as the critical path.
func TestWrite(t *testing.T) {
	got, err := read(strings.NewReader(events))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	write(&b, got, 10, time.Second)
	out := b.String()
	for _, want := range []string{
		"   8.0s     1.0s     9.0s     fail  github.com/sievetool/sieve/b\n",
		"   4.0s     pass  a TestLong\n",
		"wall 9.0s; last to end: github.com/sievetool/sieve/b (started at 1.0s, 8.0s)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "TestShort") {
		t.Errorf("a test shorter than -min is listed:\n%s", out)
	}
}
