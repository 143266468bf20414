package diag

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxQuote is the most bytes of a file's content that a message quotes.
const MaxQuote = 200

// Quote returns s cut to MaxQuote bytes (at a character's boundary, with
// "…" after the cut), for a message that quotes a value or a line read
// from a file, which may be any size.
func Quote(s string) string {
	if len(s) <= MaxQuote {
		return s
	}
	cut := MaxQuote
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Tail returns the last n lines of b, its trailing newlines dropped, for
// a message that quotes the end of a log or of a command's output.
func Tail(b []byte, n int) string {
	if n <= 0 {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// Printable returns s with every control character but newline and tab
// (C0, DEL and C1) and every byte that is not UTF-8 written as a visible
// escape (ESC as \x1b, U+009B as \u009b). So text from outside sieve (a
// controller's log, a value from the cluster) printed on a terminal
// cannot move its cursor, erase lines or change its title.
func Printable(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isControl(c) && c < 0x80:
			fmt.Fprintf(&b, `\x%02x`, c)
		case isControl(c):
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsEscape says whether Printable changes s.
func needsEscape(s string) bool {
	for _, c := range s {
		if c == utf8.RuneError || isControl(c) {
			return true
		}
	}
	return false
}

// isControl is a C0 or C1 control character or DEL, other than newline
// and tab.
func isControl(c rune) bool {
	return c != '\n' && c != '\t' && (c < 0x20 || (c >= 0x7f && c <= 0x9f))
}
