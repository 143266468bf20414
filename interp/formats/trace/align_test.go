package trace

import (
	"slices"
	"testing"
)

// TestAligned holds a step's end after the history entry that reaches
// what it saw, per kind, and lets the other entries keep their order.
func TestAligned(t *testing.T) {
	hist := func(seq int64, kind, rv string) Entry {
		return Entry{Seq: seq, Type: History, Key: &Key{Kind: kind, Name: "x"}, ResourceVersion: rv}
	}
	step := func(seq int64, phase string, seen map[string]string) Entry {
		return Entry{Seq: seq, Type: Step, Phase: phase, Seen: seen}
	}
	cases := []struct {
		name    string
		entries []Entry
		want    []int64
	}{
		{"in order", []Entry{hist(1, "pod", "5"), step(2, "end", map[string]string{"pod": "5"}), step(3, "start", nil)}, []int64{1, 2, 3}},
		{"history late", []Entry{step(1, "end", map[string]string{"pod": "7"}), step(2, "start", nil), {Seq: 3, Type: Request},
			hist(4, "configmap", "9"), hist(5, "pod", "7"), hist(6, "pod", "8")}, []int64{3, 4, 5, 1, 2, 6}},
		{"never reached", []Entry{step(1, "end", map[string]string{"pod": "7"}), hist(2, "pod", "6")}, []int64{2, 1}},
		{"not a number", []Entry{step(1, "end", map[string]string{"pod": "x"}), hist(2, "pod", "6")}, []int64{1, 2}},
	}
	for _, c := range cases {
		var got []int64
		for _, e := range Aligned(c.entries) {
			got = append(got, e.Seq)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: order %v, want %v", c.name, got, c.want)
		}
	}
}
