package explore

import (
	"math"
	"regexp"
	"slices"
	"strconv"

	"github.com/sievetool/sieve/lang/ir"
)

// numbers adds the values of an integer or number property that its
// bounds allow: each bound (the nearest allowed value to an exclusive
// one) and the value beside it, and the values beside the seed's v.
func (g *gen) numbers(p ir.Path, s map[string]any, v float64) {
	step := 1.0
	if m, ok := number(s, "multipleOf"); ok && m > 0 {
		step = m
	}
	lo, hasLo := bound(s, "minimum", "exclusiveMinimum", step)
	hi, hasHi := bound(s, "maximum", "exclusiveMaximum", -step)
	var cands []candidate
	if hasLo {
		cands = append(cands, candidate{Bound, lo}, candidate{Beside, lo + step})
	}
	if hasHi {
		cands = append(cands, candidate{Beside, hi - step}, candidate{Bound, hi})
	}
	cands = append(cands, candidate{Beside, v - step}, candidate{Beside, v + step})
	var seen []float64
	for _, c := range cands {
		f := c.value.(float64)
		if f == v || slices.Contains(seen, f) || !allowed(s, f, lo, hasLo, hi, hasHi) {
			continue
		}
		seen = append(seen, f)
		g.add(p, c.change, f)
	}
}

// candidate is a value a property may change to, and the kind of change.
type candidate struct {
	change Change
	value  any
}

// bound returns the smallest (or largest, with a negative step) value
// that the bound key allows, moved by step when the bound is exclusive
// (exclusiveMinimum: true in OpenAPI v3).
func bound(s map[string]any, key, exclusive string, step float64) (float64, bool) {
	b, ok := number(s, key)
	if ok && s[exclusive] == true {
		b += step
	}
	return b, ok
}

// allowed reports whether f is within the bounds, a multiple of
// multipleOf, whole for an integer, and within its format's range.
func allowed(s map[string]any, f, lo float64, hasLo bool, hi float64, hasHi bool) bool {
	if hasLo && f < lo || hasHi && f > hi {
		return false
	}
	if m, ok := number(s, "multipleOf"); ok && m > 0 && math.Mod(f, m) != 0 {
		return false
	}
	if s["type"] == "integer" && f != math.Trunc(f) {
		return false
	}
	switch s["format"] {
	case "int32":
		return f >= math.MinInt32 && f <= math.MaxInt32
	case "int64":
		return f >= -(1<<53) && f <= 1<<53 // exact in a float64
	}
	return true
}

// intOrString changes an x-kubernetes-int-or-string property: a number as
// a number, a quantity or percentage as such, other strings as strings.
func (g *gen) intOrString(p ir.Path, s map[string]any, v any) {
	switch t := v.(type) {
	case float64:
		g.numbers(p, map[string]any{"type": "integer"}, t)
	case string:
		if q, ok := parseQuantity(t, true); ok {
			g.quantities(p, q)
			return
		}
		g.strings(p, s, t)
	}
}

// strings changes a string property: a quantity grown and shrunk, a value
// of its format, or a changed value that keeps to its pattern and
// lengths (none when no candidate does).
func (g *gen) strings(p ir.Path, s map[string]any, v string) {
	if q, ok := parseQuantity(v, false); ok && s["format"] == nil && s["pattern"] == nil {
		g.quantities(p, q)
		return
	}
	if f, ok := s["format"].(string); ok {
		if ex, ok := formats[f]; ok {
			if ex == v {
				ex = formatsAlt[f]
			}
			g.add(p, String, ex)
			return
		}
	}
	if c, ok := g.changedString(s, v); ok {
		g.add(p, String, c)
	}
}

func (g *gen) quantities(p ir.Path, q quantity) {
	for _, c := range []string{q.grow(), q.shrink()} {
		if c != "" {
			g.add(p, Quantity, c)
		}
	}
}

// changedString returns a string other than v that s allows: v with a
// suffix the seed number makes up, or short values tried against the
// pattern.
func (g *gen) changedString(s map[string]any, v string) (string, bool) {
	suffix := g.word()
	cands := []string{suffix, suffix, v + "0", "a", "0", "a0", "x-0", v[:max(0, len(v)-1)]}
	if v != "" {
		cands[0] = v + "-" + suffix
	}
	for _, c := range cands {
		if c != v && stringAllowed(s, c) {
			return c, true
		}
	}
	return "", false
}

// word returns four lowercase letters the seed number picks.
func (g *gen) word() string {
	b := make([]byte, 4)
	for i := range b {
		b[i] = byte('a' + g.rng.IntN(26))
	}
	return string(b)
}

// stringAllowed reports whether c keeps to s's lengths and pattern
// (compiled by Go's regexp, which reads the common subset of ECMA
// patterns; a pattern it cannot read allows nothing).
func stringAllowed(s map[string]any, c string) bool {
	n := float64(len([]rune(c)))
	if min, ok := number(s, "minLength"); ok && n < min {
		return false
	}
	if max, ok := number(s, "maxLength"); ok && n > max {
		return false
	}
	if pat, ok := s["pattern"].(string); ok {
		re, err := regexp.Compile(pat)
		return err == nil && re.MatchString(c)
	}
	return true
}

// formats holds a value of each string format the generator knows, and
// formatsAlt another for when the seed holds the first.
var (
	formats = map[string]string{
		"date-time": "2001-02-03T04:05:06Z", "date": "2001-02-03", "uuid": "00000000-0000-4000-8000-000000000001",
		"email": "sieve@example.com", "hostname": "explore.example.com", "ipv4": "10.0.0.1", "ipv6": "fd00::1",
		"uri": "https://example.com/explore", "byte": "c2lldmU=", "duration": "1m30s",
	}
	formatsAlt = map[string]string{
		"date-time": "2002-03-04T05:06:07Z", "date": "2002-03-04", "uuid": "00000000-0000-4000-8000-000000000002",
		"email": "explore@example.com", "hostname": "sieve.example.com", "ipv4": "10.0.0.2", "ipv6": "fd00::2",
		"uri": "https://example.com/sieve", "byte": "ZXhwbG9yZQ==", "duration": "2m",
	}
)

// quantity is a Kubernetes resource quantity: a number and a suffix.
type quantity struct {
	n      float64
	suffix string
}

var quantityRE = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?$`)

// parseQuantity reads a quantity; without bare, a plain string needs a
// suffix to count as one ("3" is a string, "3Gi" a quantity).
func parseQuantity(v string, bare bool) (quantity, bool) {
	m := quantityRE.FindStringSubmatch(v)
	if m == nil || m[2] == "" && !bare {
		return quantity{}, false
	}
	n, err := strconv.ParseFloat(m[1], 64)
	return quantity{n: n, suffix: m[2]}, err == nil
}

// lower is the suffix one step down, and its factor.
var lower = map[string]struct {
	suffix string
	factor float64
}{
	"Ki": {"", 1024}, "Mi": {"Ki", 1024}, "Gi": {"Mi", 1024}, "Ti": {"Gi", 1024}, "Pi": {"Ti", 1024}, "Ei": {"Pi", 1024},
	"k": {"", 1000}, "M": {"k", 1000}, "G": {"M", 1000}, "T": {"G", 1000}, "P": {"T", 1000}, "E": {"P", 1000},
	"": {"m", 1000},
}

func (q quantity) String() string { return strconv.FormatFloat(q.n, 'f', -1, 64) + q.suffix }

// grow doubles the quantity.
func (q quantity) grow() string { return quantity{q.n * 2, q.suffix}.String() }

// shrink halves it, in a smaller unit when half is not whole; "" when
// it is zero or cannot be halved.
func (q quantity) shrink() string {
	h := q.n / 2
	if h == 0 {
		return ""
	}
	if h == math.Trunc(h) {
		return quantity{h, q.suffix}.String()
	}
	if l, ok := lower[q.suffix]; ok {
		return quantity{h * l.factor, l.suffix}.String()
	}
	return ""
}
