package hostile

import (
	"errors"
	"strings"
	"testing"
)

func TestUnclear(t *testing.T) {
	for _, tc := range []struct {
		msg, in string
		clear   bool
	}{
		{"summary.json: line 3: runs: want a list", "", true},
		{"", "", false},
		{"  ", "", false},
		{strings.Repeat("x", MaxError+1), "", false},
		{"json: cannot unmarshal string into Go struct field Summary.runs of type []*results.TestRun", "", false},
		{"got &{a b}", "", false},
		{"got map[a:1]", "", false},
		{"bad value %!d(string=x)", "", false},
		{`want a number, got "map[a:1]"`, "x: map[a:1]", true},
	} {
		if got := Unclear(errors.New(tc.msg), []byte(tc.in)) == ""; got != tc.clear {
			t.Errorf("Unclear(%q) clear = %v, want %v", tc.msg, got, tc.clear)
		}
	}
}
