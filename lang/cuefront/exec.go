package cuefront

import (
	"cuelang.org/go/cue"

	"github.com/sievetool/sieve/lang/ir"
)

// execStandIns lowers a controller's exec stand-ins; the schema has
// checked their shape, this checks their patterns and that each answers
// one way.
func (l *lowerer) execStandIns(f cue.Value) []*ir.ExecStandIn {
	var out []*ir.ExecStandIn
	for _, v := range listOf(f) {
		s := &ir.ExecStandIn{
			Src: l.rng(v), Pod: str(v, "pod"), Namespace: str(v, "namespace"), Container: str(v, "container"),
			Stdout: str(v, "stdout"), Stderr: str(v, "stderr"), Exit: l.integer(v, "exit", 0),
		}
		l.execGlobs(v, s)
		if cmd, ok := field(v, "command"); ok {
			s.Command = stringsOf(cmd)
			if summary, hint := ir.CheckExecCommand(s.Command); summary != "" {
				l.errorf(cmd, "exec", "%s", summary)
				l.ds[len(l.ds)-1].Detail = hint
			}
		}
		if run, ok := field(v, "run"); ok {
			s.Run = l.command(run)
			if has(v, "stdout") || has(v, "stderr") || has(v, "exit") {
				l.errorf(run, "exec", "exec: set run or a reply (stdout, stderr, exit), not both")
			}
		}
		out = append(out, s)
	}
	return out
}

func (l *lowerer) execGlobs(v cue.Value, s *ir.ExecStandIn) {
	for i, p := range []string{s.Pod, s.Namespace, s.Container} {
		name := [...]string{"pod", "namespace", "container"}[i]
		if msg := ir.CheckExecGlob(name, p); msg != "" {
			f, _ := field(v, name)
			l.errorf(f, "pattern", "%s", msg)
		}
	}
}
