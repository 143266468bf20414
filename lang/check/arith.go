package check

import (
	"math"

	"github.com/sievetool/sieve/lang/diag"
)

// arith applies a binary operator: + adds numbers and durations and
// concatenates strings and lists; - subtracts numbers and durations; *
// multiplies numbers, or a duration by an integer. Integer and duration
// results that do not fit in 64 bits are an error at rng, never a
// wrapped value.
func (c *checker) arith(op string, a, b *value, rng diag.Range) *value {
	out := &value{kind: kUnknown, rng: rng, file: a.file}
	if a.kind == kUnknown || b.kind == kUnknown {
		return out
	}
	ok, overflow := false, false
	switch op {
	case "+":
		ok = c.add(out, a, b, &overflow)
	case "-":
		ok = numeric(out, a, b, checked(subInt, &overflow), func(x, y float64) float64 { return x - y })
	case "*":
		ok = c.mul(out, a, b, &overflow)
	}
	switch {
	case !ok:
		c.errorf(rng, "type", "cannot apply %s to %s and %s", op, a.describe(), b.describe())
		out.kind = kUnknown
	case overflow:
		c.errorf(rng, "overflow", "%s overflow: %s %s %s is out of range (%s)", out.kind, a.describe(), op, b.describe(), limitOf(out.kind))
		out.kind = kUnknown
	}
	return out
}

func (c *checker) add(out, a, b *value, overflow *bool) bool {
	switch {
	case a.kind == kString && b.kind == kString:
		out.kind, out.s, out.raw = kString, a.s+b.s, a.raw
		return true
	case a.kind == kList && b.kind == kList:
		out.kind, out.list = kList, append(append([]*value(nil), a.list...), b.list...)
		return true
	}
	return numeric(out, a, b, checked(addInt, overflow), func(x, y float64) float64 { return x + y })
}

func (c *checker) mul(out, a, b *value, overflow *bool) bool {
	mul := checked(mulInt, overflow)
	switch {
	case a.kind == kDuration && b.kind == kInt:
		out.kind, out.d = kDuration, timeDuration(mul(int64(a.d), b.i))
		return true
	case a.kind == kInt && b.kind == kDuration:
		out.kind, out.d = kDuration, timeDuration(mul(a.i, int64(b.d)))
		return true
	case a.kind == kDuration || b.kind == kDuration:
		return false
	}
	return numeric(out, a, b, mul, func(x, y float64) float64 { return x * y })
}

// numeric applies an operation to two integers, two numbers, or two
// durations.
func numeric(out, a, b *value, fi func(x, y int64) int64, ff func(x, y float64) float64) bool {
	switch {
	case a.kind == kInt && b.kind == kInt:
		out.kind, out.i = kInt, fi(a.i, b.i)
	case a.kind == kDuration && b.kind == kDuration:
		out.kind, out.d = kDuration, timeDuration(fi(int64(a.d), int64(b.d)))
	case isNumber(a) && isNumber(b):
		out.kind, out.f = kFloat, ff(asFloat(a), asFloat(b))
	default:
		return false
	}
	return true
}

// checked adapts an integer operation that reports overflow to one that
// records it in *overflow.
func checked(op func(x, y int64) (int64, bool), overflow *bool) func(x, y int64) int64 {
	return func(x, y int64) int64 {
		r, ok := op(x, y)
		if !ok {
			*overflow = true
		}
		return r
	}
}

func addInt(x, y int64) (int64, bool) {
	r := x + y
	return r, (r > x) == (y > 0)
}

func subInt(x, y int64) (int64, bool) {
	r := x - y
	return r, (r < x) == (y > 0)
}

func mulInt(x, y int64) (int64, bool) {
	if x == 0 || y == 0 {
		return 0, true
	}
	r := x * y
	if (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) || r/y != x {
		return r, false
	}
	return r, true
}

// negInt negates x; the one integer without a negation is math.MinInt64.
func negInt(x int64) (int64, bool) {
	return -x, x != math.MinInt64
}

// limitOf says how far values of kind k reach.
func limitOf(k kind) string {
	if k == kDuration {
		return "durations reach about 2562047h"
	}
	return "integers are 64-bit"
}

func isNumber(v *value) bool { return v.kind == kInt || v.kind == kFloat }

func asFloat(v *value) float64 {
	if v.kind == kInt {
		return float64(v.i)
	}
	return v.f
}
