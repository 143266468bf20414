package cuefront

import (
	"cuelang.org/go/cue"

	"github.com/sievetool/sieve/lang/ir"
)

// standins lowers a controller's standin: "SERVICE:PORT" and "pods
// SELECTOR:PORT" fields whose
// values are a command or { command, env }, as the .sieve checker does.
func (l *lowerer) standins(v cue.Value) []*ir.Standin {
	var out []*ir.Standin
	seen := map[string]bool{}
	for _, f := range fields(v) {
		s, msg, hint := ir.ParseStandinKey(f.name)
		if msg != "" {
			l.errorf(f.v, "standin", "%s", msg)
			l.ds[len(l.ds)-1].Detail = hint
			continue
		}
		if seen[s.Name()] {
			l.errorf(f.v, "standin", "%s", ir.SecondStandin(s))
			continue
		}
		seen[s.Name()] = true
		s.Src = l.rng(f.v)
		run := f.v
		if c, ok := field(f.v, "command"); ok {
			run = c
			if e, ok := field(f.v, "env"); ok {
				s.Env = l.envVars(e)
			}
		}
		s.Command = l.command(run)
		out = append(out, s)
	}
	return out
}
