package diag

import (
	"strings"
	"testing"
)

func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain\ttext\nnext line, é ✓", "plain\ttext\nnext line, é ✓"},
		{"\x1b]0;owned\x07title", `\x1b]0;owned\x07title`},
		{"erase\x1b[2K\rline", `erase\x1b[2K\x0dline`},
		{"c1 \u009b2J and del \x7f", `c1 \u009b2J and del \x7f`},
		{"bad \xff\xfe utf-8", `bad \xff\xfe utf-8`},
	} {
		if got := Printable(tc.in); got != tc.want {
			t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestQuote(t *testing.T) {
	if got := Quote("short"); got != "short" {
		t.Errorf("Quote(short) = %q", got)
	}
	long := strings.Repeat("é", MaxQuote) // two bytes each: the cut falls inside one at an odd limit
	got := Quote("x" + long)
	if len(got) > MaxQuote+len("…") || !strings.HasSuffix(got, "…") || !strings.HasPrefix(got, "xé") {
		t.Errorf("Quote(%d bytes) = %d bytes %q…, want at most %d and a trailing …", len(long)+1, len(got), got[:10], MaxQuote)
	}
	if strings.ContainsRune(strings.TrimSuffix(got, "…"), '\uFFFD') || !strings.HasSuffix(strings.TrimSuffix(got, "…"), "é") {
		t.Errorf("Quote cut inside a character: %q", got[len(got)-8:])
	}
}

func TestTail(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"a\nb\nc\n", 2, "b\nc"},
		{"a\nb", 5, "a\nb"},
		{"a\nb\n\n\n", 1, "b"},
		{"a\n\nc", 2, "\nc"},
		{"", 3, ""},
		{"a\nb", 0, ""},
		{"a\nb", -1, ""},
	} {
		if got := Tail([]byte(tc.in), tc.n); got != tc.want {
			t.Errorf("Tail(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
