package check

import (
	"strings"

	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
)

// execFields are the fields of an exec stand-in.
var execFields = strings.Fields("pod namespace container command run stdout stderr exit")

const execShape = `{ pod: "glob", command: ["program", "arg"], stdout: "text", exit: 0 } or { pod: ..., command: ..., run: ["./program"] }`

// controllerExec lowers the exec attribute: a list of stand-ins (or one).
func (c *checker) controllerExec(out *ir.Controller, vals map[string]*value) {
	v := vals["exec"]
	if v == nil {
		return
	}
	for _, e := range elems(v) {
		if s := c.execStandIn(e); s != nil {
			out.Exec = append(out.Exec, s)
		}
	}
}

// execStandIn lowers one stand-in object.
func (c *checker) execStandIn(v *value) *ir.ExecStandIn {
	if v.use(kObject) {
		return nil
	}
	if v.kind != kObject {
		c.errorf(v.rng, "type", "exec: want %s, got %s", execShape, v.describe())
		return nil
	}
	s := &ir.ExecStandIn{Src: v.rng}
	seen := map[string]*field{}
	for _, f := range v.fields {
		name := f.path.String()
		seen[name] = f
		c.execField(s, name, f)
	}
	c.execComplete(s, v, seen)
	return s
}

func (c *checker) execField(s *ir.ExecStandIn, name string, f *field) {
	switch name {
	case "pod":
		s.Pod = c.execGlob(f.val, "pod")
	case "namespace":
		s.Namespace = c.execGlob(f.val, "namespace")
	case "container":
		s.Container = c.execGlob(f.val, "container")
	case "command":
		s.Command = c.strList(f.val, "exec command")
		if summary, h := ir.CheckExecCommand(s.Command); summary != "" && f.val.kind != kUnknown {
			hint(c.errorf(f.val.rng, "exec", "%s", summary), h)
		}
	case "run":
		s.Run = c.execRun(f.val)
	case "stdout":
		s.Stdout, _ = c.str(f.val, "exec stdout")
	case "stderr":
		s.Stderr, _ = c.str(f.val, "exec stderr")
	case "exit":
		code, ok := c.integer(f.val, "exec exit", 0)
		if ok && code > 255 {
			c.errorf(f.val.rng, "range", "exec exit: must be at most 255, got %d", code)
		}
		s.Exit = int(code)
	default:
		d := c.errorf(f.rng, "unknown", "unknown exec field %q", name)
		hint(d, spell.Hint(name, execFields))
	}
}

// execRun checks the program of a stand-in; a program path with a slash
// is rebased like the controller's command.
func (c *checker) execRun(v *value) []string {
	run := c.strList(v, "exec run")
	if len(run) == 0 {
		if v.kind != kUnknown {
			hint(c.errorf(v.rng, "exec", "exec run: empty"), `give the program, then its arguments: ["./fake-admin"]`)
		}
		return nil
	}
	if strings.Contains(run[0], "/") {
		prog := *elems(v)[0]
		if p, ok := c.filePath(&prog, "exec run", false, true); ok {
			run[0] = p
		}
	}
	return run
}

// execGlob checks a glob field of a stand-in.
func (c *checker) execGlob(v *value, what string) string {
	s, ok := c.str(v, "exec "+what)
	if ok {
		if msg := ir.CheckExecGlob(what, s); msg != "" {
			c.errorf(v.rng, "pattern", "%s", msg)
		}
	}
	return s
}

// execComplete reports a stand-in without pod or command, or with both a
// program and a scripted reply.
func (c *checker) execComplete(s *ir.ExecStandIn, v *value, seen map[string]*field) {
	if seen["pod"] == nil {
		hint(c.errorf(v.rng, "exec", "exec: no pod"), `add pod: "name-*" (a glob on the pod's name)`)
	}
	if seen["command"] == nil {
		hint(c.errorf(v.rng, "exec", "exec: no command"), `add command: ["program", "arg"]; "..." matches the rest`)
	}
	if seen["run"] == nil {
		return
	}
	for _, name := range []string{"stdout", "stderr", "exit"} {
		if f := seen[name]; f != nil {
			d := c.errorf(f.rng, "exec", "exec: set run or a reply (stdout, stderr, exit), not both")
			related(d, "run is set here", seen["run"].rng)
			return
		}
	}
}
