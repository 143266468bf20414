package plan

import (
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// TestStaleSource picks the answer a spec plan's stale action gives the
// last of a run of equal calls: the latest earlier answer that was
// recorded whole and differs from the call's own, past those answered
// as it was; when there is none, it says how the earlier ones were
// answered. (testdata/cases/ensemble-userstale holds the same on a
// reference trace, with the trigger replayed.)
func TestStaleSource(t *testing.T) {
	a := &planfile.Answer{Exit: 0, Stdout: "members: 1\n"}
	b := &planfile.Answer{Exit: 0, Stdout: "members: 2\n"}
	for _, c := range []struct {
		name    string
		answers []*planfile.Answer // the calls' answers, in order; nil: not recorded whole
		src     int64              // the seq of the call whose answer the last gets (0: none)
		why     string
	}{
		{"first", []*planfile.Answer{a}, 0, "#1 exec [\"db-ctl\",\"status\"] in pod/default/db-0 is the first of its kind"},
		{"changed", []*planfile.Answer{a, b}, 1, ""},
		{"past the same", []*planfile.Answer{a, b, b, b}, 1, ""},
		{"latest", []*planfile.Answer{b, a, b, b}, 2, ""},
		{"all the same", []*planfile.Answer{a, a, a}, 0, "(2 earlier: 2 with the same answer, 0 whose answer was not recorded whole"},
		{"not recorded", []*planfile.Answer{nil, a, a}, 0, "(2 earlier: 1 with the same answer, 1 whose answer was not recorded whole: past 65536 bytes"},
		{"own not recorded", []*planfile.Answer{a, nil}, 1, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var last *appCall
			for i, ans := range c.answers {
				last = &appCall{Call: observe.ExecCall("default", "db-0", []string{"db-ctl", "status"}),
					entry: &trace.Entry{Seq: int64(i + 1)}, answer: ans, prev: last}
			}
			src, why := staleSource(last)
			switch {
			case c.src == 0 && src != nil:
				t.Errorf("answer of #%d, want none", src.entry.Seq)
			case c.src != 0 && (src == nil || src.entry.Seq != c.src):
				t.Errorf("answer of %v (%s), want #%d's", src, why, c.src)
			case !strings.Contains(why, c.why):
				t.Errorf("why %q, want it to say %q", why, c.why)
			}
		})
	}
}
