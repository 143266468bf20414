package check

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/diag"
)

// celKey identifies a compiled expression, so each distinct expression is
// compiled once per check.
type celKey struct {
	kind celenv.Kind
	expr string
}

// celValue checks that v is a string holding a CEL expression of kind k
// that compiles, and returns the expression.
func (c *checker) celValue(v *value, k celenv.Kind, what string) string {
	s, _ := c.celParams(v, k, what, nil)
	return s
}

// celParams is celValue for an expression that sees params as constants
// (nil: a parameter whose value is not known); ok is false when the
// expression does not compile.
func (c *checker) celParams(v *value, k celenv.Kind, what string, params map[string]any) (expr string, ok bool) {
	s, ok := c.str(v, what)
	if !ok {
		return "", false
	}
	if strings.TrimSpace(s) == "" {
		c.errorf(v.rng, "cel", "%s: empty CEL expression", what)
		return s, false
	}
	err := c.compileCEL(k, s, params)
	c.celErrors(v, what, err)
	return s, err == nil
}

// celErrors reports the errors of compiling v's expression, inside the
// expression where CEL says.
func (c *checker) celErrors(v *value, what string, err error) {
	var es celenv.Errors
	switch {
	case err == nil:
	case errors.As(err, &es):
		for _, e := range es {
			c.errorf(celRange(v, e), "cel", "%s: %s", what, strings.TrimSuffix(e.Msg, " (in container '')"))
		}
	default:
		c.errorf(v.rng, "cel", "%s: %v", what, err)
	}
}

// compileCEL compiles an expression once per check; one with parameters
// (an invariant's) every time, as each use binds other values.
func (c *checker) compileCEL(k celenv.Kind, expr string, params map[string]any) error {
	key := celKey{k, expr}
	if err, ok := c.celCache[key]; ok && params == nil {
		return err
	}
	env, err := c.celEnv()
	if err == nil {
		_, err = env.CompileParams(k, expr, params)
	}
	if params == nil {
		c.celCache[key] = err
	}
	return err
}

// celEnv is the CEL environment, built on first use.
func (c *checker) celEnv() (*celenv.Env, error) {
	if c.cel == nil && c.celErr == nil {
		c.cel, c.celErr = celenv.New()
	}
	return c.cel, c.celErr
}

// celRange places a CEL error inside the literal that holds the
// expression when the literal's text is the expression itself (a raw
// string, or a string without escapes); otherwise at the whole value.
func celRange(v *value, e *celenv.Error) diag.Range {
	lit := v.lit
	if lit == nil || len(lit.Text) < 2 || lit.Text[1:len(lit.Text)-1] != v.s {
		return v.rng
	}
	p := lit.Range().Start
	lines := strings.Split(v.s, "\n")
	if e.Line < 1 || e.Line > len(lines) {
		return v.rng
	}
	for _, l := range lines[:e.Line-1] {
		p.Offset += len(l) + 1
	}
	col := min(e.Column, utf8.RuneCountInString(lines[e.Line-1])+1)
	prefix := string([]rune(lines[e.Line-1])[:col-1])
	if e.Line == 1 {
		p.Offset++ // the opening quote
		p.Column += 1 + utf8.RuneCountInString(prefix)
	} else {
		p.Line += e.Line - 1
		p.Column = col
	}
	p.Offset += len(prefix)
	end := p
	end.Column++
	end.Offset++
	return diag.Range{Start: p, End: end}
}
