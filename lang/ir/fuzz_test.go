package ir

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
)

// FuzzStandinKey feeds arbitrary keys to the stand-in key reader: it must
// never panic, a bad key has a message, and a good one names a DNS label
// or a selector, and ports in range, that, written back, read the same.
func FuzzStandinKey(f *testing.F) {
	for _, s := range []string{"db:5000", "db-client:5000,5001", "db: 80", "db", ":1", "db:0", "db:65536", "DB:1", "db:1,,2",
		"pods app=agent:9090", "pods a=b,!c:1,2", "pods :80", "pods app in (a):80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		s, msg, _ := ParseStandinKey(key)
		if msg != "" {
			if s != nil {
				t.Fatalf("%q: an error and a result", key)
			}
			return
		}
		if s.Pods == "" && !DNSLabel(s.Service) || len(s.Ports) == 0 {
			t.Fatalf("%q: accepted %+v", key, *s)
		}
		var text []string
		for _, p := range s.Ports {
			if p < 1 || p > 65535 {
				t.Fatalf("%q: port %d out of range", key, p)
			}
			text = append(text, fmt.Sprint(p))
		}
		again := s.Service + ":" + strings.Join(text, ",")
		if s.Pods != "" {
			again = "pods " + s.Pods + ":" + strings.Join(text, ",")
		}
		s2, msg2, _ := ParseStandinKey(again)
		if msg2 != "" || s2.Service != s.Service || s2.Pods != s.Pods || fmt.Sprint(s2.Ports) != fmt.Sprint(s.Ports) {
			t.Fatalf("%q reads as %+v, written back %q reads differently (%s)", key, *s, again, msg2)
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
