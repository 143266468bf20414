package ir

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
)

// FuzzStandinKey feeds arbitrary keys to the stand-in key reader: it must
// never panic, a bad key has a message, and a good one names a DNS label
// and ports in range that, written back, read the same.
func FuzzStandinKey(f *testing.F) {
	for _, s := range []string{"db:5000", "db-client:5000,5001", "db: 80", "db", ":1", "db:0", "db:65536", "DB:1", "db:1,,2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		svc, ports, msg, _ := ParseStandinKey(key)
		if msg != "" {
			if svc != "" || ports != nil {
				t.Fatalf("%q: an error and a result", key)
			}
			return
		}
		if !DNSLabel(svc) || len(ports) == 0 {
			t.Fatalf("%q: accepted service %q ports %v", key, svc, ports)
		}
		var text []string
		for _, p := range ports {
			if p < 1 || p > 65535 {
				t.Fatalf("%q: port %d out of range", key, p)
			}
			text = append(text, fmt.Sprint(p))
		}
		again := svc + ":" + strings.Join(text, ",")
		svc2, ports2, msg2, _ := ParseStandinKey(again)
		if msg2 != "" || svc2 != svc || fmt.Sprint(ports2) != fmt.Sprint(ports) {
			t.Fatalf("%q reads as %q %v, written back %q reads as %q %v (%s)", key, svc, ports, again, svc2, ports2, msg2)
		}
	})
}

// FuzzDuration feeds arbitrary JSON to the IR's duration reader: it must
// never panic, an error is clear, and a duration it reads writes back to JSON that reads the
// same.
func FuzzDuration(f *testing.F) {
	for _, s := range []string{`"30s"`, `"1h2m3.5s"`, `"-1ns"`, `"0"`, `30`, `"9223372036854775807ns"`, `"1e3s"`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var d Duration
		if err := d.UnmarshalJSON(b); err != nil {
			hostile.CheckError(t, err, b)
			return
		}
		out, err := d.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var again Duration
		if err := again.UnmarshalJSON(out); err != nil || again != d {
			t.Fatalf("%s reads as %v, written back %s reads as %v (%v)", b, d, out, again, err)
		}
	})
}
