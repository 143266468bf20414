package check

import "github.com/sievetool/sieve/lang/diag"

// arith applies a binary operator: + adds numbers and durations and
// concatenates strings and lists; - subtracts numbers and durations; *
// multiplies numbers, or a duration by an integer.
func (c *checker) arith(op string, a, b *value, rng diag.Range) *value {
	out := &value{kind: kUnknown, rng: rng, file: a.file}
	if a.kind == kUnknown || b.kind == kUnknown {
		return out
	}
	ok := false
	switch op {
	case "+":
		ok = c.add(out, a, b)
	case "-":
		ok = numeric(out, a, b, func(x, y int64) int64 { return x - y }, func(x, y float64) float64 { return x - y })
	case "*":
		ok = c.mul(out, a, b)
	}
	if !ok {
		c.errorf(rng, "type", "cannot apply %s to %s and %s", op, a.describe(), b.describe())
		out.kind = kUnknown
	}
	return out
}

func (c *checker) add(out, a, b *value) bool {
	switch {
	case a.kind == kString && b.kind == kString:
		out.kind, out.s, out.raw = kString, a.s+b.s, a.raw
		return true
	case a.kind == kList && b.kind == kList:
		out.kind, out.list = kList, append(append([]*value(nil), a.list...), b.list...)
		return true
	}
	return numeric(out, a, b, func(x, y int64) int64 { return x + y }, func(x, y float64) float64 { return x + y })
}

func (c *checker) mul(out, a, b *value) bool {
	switch {
	case a.kind == kDuration && b.kind == kInt:
		out.kind, out.d = kDuration, a.d*timeDuration(b.i)
		return true
	case a.kind == kInt && b.kind == kDuration:
		out.kind, out.d = kDuration, b.d*timeDuration(a.i)
		return true
	case a.kind == kDuration || b.kind == kDuration:
		return false
	}
	return numeric(out, a, b, func(x, y int64) int64 { return x * y }, func(x, y float64) float64 { return x * y })
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

func isNumber(v *value) bool { return v.kind == kInt || v.kind == kFloat }

func asFloat(v *value) float64 {
	if v.kind == kInt {
		return float64(v.i)
	}
	return v.f
}
