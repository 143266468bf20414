package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/formats/results"
)

// TestProgressAfterCount: on a terminal, the status line first shows
// under the "N plans to run" message, never before it, and is rewritten
// in place as plans finish.
func TestProgressAfterCount(t *testing.T) {
	var b bytes.Buffer
	p := &progressDisplay{w: &b, tty: true}
	p.planned(2)
	if b.Len() != 0 {
		t.Errorf("status line drawn before the plan count was printed: %q", b.String())
	}
	fmt.Fprintf(p, "2 plans to run on 1 worker(s)\n")
	p.result(&results.Result{Status: results.Passed})
	p.end()
	want := "sieve: 2 plans to run on 1 worker(s)\n" +
		"sieve: 0/2 plans done, 0 findings" +
		"\r\x1b[K" + "sieve: 1/2 plans done, 0 findings, about " // the time left varies
	if got := b.String(); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "left\r\x1b[K") {
		t.Errorf("got  %q\nwant %q...left\\r\\x1b[K", got, want)
	}
	if i := strings.Index(b.String(), "0/2"); i < strings.Index(b.String(), "plans to run") {
		t.Error("the status line comes before the plan count")
	}
}
