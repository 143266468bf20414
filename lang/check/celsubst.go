package check

import (
	"fmt"
	"strings"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/internal/spell"
)

// substituteCEL replaces ${name} in a CEL string inside a workload with the
// text of the parameter's value (a string as is, without quotes; a number,
// duration or bool as written by the IR), so the checker compiles the
// substituted expression. Outside workloads the text is left alone. It
// returns the value unchanged, or a copy holding the substituted text;
// skip is true when a parameter has no value yet (a body checked on its
// own), so there is nothing meaningful to compile.
func (c *checker) substituteCEL(v *value, sc *scope, what string) (out *value, skip bool) {
	if sc == nil || sc.workload == nil || v.kind != kString || !strings.Contains(v.s, "${") {
		return v, false
	}
	var b strings.Builder
	text := v.s
	for {
		i := strings.Index(text, "${")
		j := -1
		if i >= 0 {
			j = strings.IndexByte(text[i:], '}')
		}
		if j < 0 {
			b.WriteString(text)
			break
		}
		b.WriteString(text[:i])
		s, ok := c.celParam(text[i+2:i+j], v, sc, what)
		skip = skip || !ok
		b.WriteString(s)
		text = text[i+j+1:]
	}
	cp := *v
	cp.s = b.String()
	return &cp, skip
}

// celParam is the text of one ${name} in a CEL string; ok is false when
// the value is unknown or wrong (reported).
func (c *checker) celParam(name string, v *value, sc *scope, what string) (string, bool) {
	pv, found := sc.params[name]
	if !found {
		d := c.errorf(v.rng, "undefined", "%s: undefined parameter ${%s} in workload %s", what, name, sc.workload.name)
		hint(d, spell.Hint(name, sc.paramNames()))
		return "", false
	}
	switch pv.kind {
	case kString, kWord, kKey, kInt, kFloat, kDuration, kBool:
		return fmt.Sprint(pv.toAny()), true
	case kUnknown:
		return "", false
	}
	c.errorf(v.rng, "type", "%s: ${%s}: want a string, number, duration or bool in a CEL expression, got %s", what, name, pv.describe())
	return "", false
}

// celInScope is celValue after ${param} substitution in workloads.
func (c *checker) celInScope(v *value, sc *scope, k celenv.Kind, what string) string {
	sv, skip := c.substituteCEL(v, sc, what)
	if skip {
		return sv.s
	}
	n := len(c.diags)
	out := c.celValue(sv, k, what)
	if sv != v {
		for _, d := range c.diags[n:] {
			if d.Detail == "" {
				d.Detail = "after substituting parameters the expression is: " + sv.s
			}
		}
	}
	return out
}
