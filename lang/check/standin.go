package check

import (
	"slices"
	"strings"

	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
)

// controllerStandins lowers the standin attribute: an object whose field
// names are "SERVICE:PORT[,PORT...]" or "pods SELECTOR:PORT[,PORT...]"
// and whose values are a command (a
// string or a list) or { command: [...], env: {...} }.
func (c *checker) controllerStandins(out *ir.Controller, vals map[string]*value) {
	v := vals["standin"]
	if v == nil || v.use(kObject) {
		return
	}
	if v.kind != kObject {
		c.errorf(v.rng, "type", `standin: want { "SERVICE:PORT": ["program", "arg"] }, got %s`, v.describe())
		return
	}
	seen := map[string]bool{}
	for _, f := range v.fields {
		s := c.standin(f)
		if s == nil {
			continue
		}
		if seen[s.Name()] {
			c.errorf(f.rng, "standin", "%s", ir.SecondStandin(s))
			continue
		}
		seen[s.Name()] = true
		out.Standins = append(out.Standins, s)
	}
}

// standin lowers one field of the standin object.
func (c *checker) standin(f *field) *ir.Standin {
	key := f.path.String()
	if len(f.path) == 1 {
		key = f.path[0].Key()
	}
	s, msg, h := ir.ParseStandinKey(key)
	if msg != "" {
		hint(c.errorf(f.rng, "standin", "%s", msg), h)
		return nil
	}
	s.Src = f.rng
	c.standinRun(s, f.val)
	return s
}

// standinRun sets the program: a command, or { command, env }.
func (c *checker) standinRun(s *ir.Standin, v *value) {
	if v.kind != kObject {
		s.Command = c.command(v)
		return
	}
	for _, f := range v.fields {
		switch name := f.path.String(); name {
		case "command":
			s.Command = c.command(f.val)
		case "env":
			for k, val := range c.stringMap(f.val, "standin env") {
				s.Env = append(s.Env, ir.EnvVar{Name: k, Value: val})
			}
			slices.SortFunc(s.Env, func(a, b ir.EnvVar) int { return strings.Compare(a.Name, b.Name) })
		default:
			hint(c.errorf(f.rng, "unknown", "unknown standin field %q", name), spell.Hint(name, []string{"command", "env"}))
		}
	}
	if len(s.Command) == 0 {
		c.errorf(v.rng, "standin", "standin %s: no command", s.Name())
	}
}
