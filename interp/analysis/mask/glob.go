package mask

import (
	"regexp"
	"strings"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// globKind says how a compiled glob matches.
type globKind int

const (
	globAny      globKind = iota // "*" or empty: everything
	globExact                    // no wildcard
	globPrefix                   // "abc*"
	globSuffix                   // "*abc"
	globRegexp                   // anything else
	globKindName                 // a kind without group: exact, or lit + "." + group
)

// glob is a precompiled shell-style pattern where "*" matches any run of
// characters and "?" any one character.
type glob struct {
	kind globKind
	lit  string
	re   *regexp.Regexp
}

// compileGlob compiles a pattern; the empty pattern matches everything.
func compileGlob(p string) glob {
	if p == "" || p == "*" {
		return glob{kind: globAny}
	}
	if !strings.ContainsAny(p, "*?") {
		return glob{kind: globExact, lit: p}
	}
	body := p[:len(p)-1]
	if strings.HasSuffix(p, "*") && !strings.ContainsAny(body, "*?") {
		return glob{kind: globPrefix, lit: body}
	}
	if strings.HasPrefix(p, "*") && !strings.ContainsAny(p[1:], "*?") {
		return glob{kind: globSuffix, lit: p[1:]}
	}
	return glob{kind: globRegexp, re: regexp.MustCompile(globRegexpSource(p))}
}

// globRegexpSource translates a glob to an anchored regular expression.
func globRegexpSource(p string) string {
	var b strings.Builder
	b.WriteString("^")
	for _, r := range p {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return b.String()
}

// compileKindGlob compiles the kind part of a target. A plain kind without
// a group also matches that kind in any group, as trace.KindMatches says:
// "datastore" matches "datastore.example.com".
func compileKindGlob(p string) glob {
	g := compileGlob(p)
	if g.kind == globExact && !strings.Contains(p, ".") {
		g.kind = globKindName
	}
	return g
}

// match reports whether s matches the glob.
func (g glob) match(s string) bool {
	switch g.kind {
	case globAny:
		return true
	case globExact:
		return s == g.lit
	case globPrefix:
		return strings.HasPrefix(s, g.lit)
	case globSuffix:
		return strings.HasSuffix(s, g.lit)
	case globKindName:
		return trace.KindMatches(g.lit, s)
	default:
		return g.re.MatchString(s)
	}
}
