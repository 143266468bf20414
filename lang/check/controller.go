package check

import (
	"regexp"
	"strings"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/internal/gomod"
	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/kinds"
	"github.com/sievetool/sieve/lang/syntax"
)

// controllerAttrs are the attributes of a controller body; a test may set
// them too, overriding its controller's.
const controllerAttrNames = "build command builtin args env dir crds namespace namespaces kubeconfig ready replaces exec pod standin"

func controllerAttrs() []string { return strings.Fields(controllerAttrNames) }

// lowerController lowers controller d with a test's overrides applied
// (nil for the controller on its own).
func (c *checker) lowerController(d *decl, overrides *attrSet) *ir.Controller {
	n := d.node.(*syntax.Controller)
	what := "controller " + d.name
	if d.ctrlAttrs == nil {
		d.ctrlAttrs = c.body(d, n.Body, &scope{file: d.file}, what, controllerAttrs(), false)
	}
	attrs := d.ctrlAttrs
	vals := map[string]*value{}
	runner := lastRunOwner(overrides)
	for _, name := range controllerAttrs() {
		var start *value
		if ops := attrs.ops[name]; len(ops) > 0 && (runner == nil || !isRunAttr(name)) {
			start = ops[0].val
		}
		var more []*attrOp
		if overrides != nil {
			more = overrides.ops[name]
		}
		if runner != nil && isRunAttr(name) {
			more = opsOf(more, runner)
		}
		if v := c.fold(start, more); v != nil {
			vals[name] = v
		}
	}
	out := ir.NewController(c.irName(d), n.Range())
	c.controllerRun(out, vals, what, n.Name.Range())
	c.controllerEnv(out, vals)
	c.controllerCluster(out, vals)
	if summary, h := ir.CheckControllerName(d.name, out.Kubeconfig.InCluster, true); summary != "" {
		hint(c.errorf(n.Name.Range(), "controller", "%s", summary), h)
	}
	c.controllerExec(out, vals)
	c.controllerPod(out, vals)
	c.controllerStandins(out, vals)
	return out
}

// isRunAttr reports whether name is one of the ways to start a controller.
func isRunAttr(name string) bool {
	return name == "build" || name == "command" || name == "builtin"
}

// lastRunOwner returns the most derived test that sets build, command or
// builtin: its choice replaces the controller's and any base test's.
func lastRunOwner(overrides *attrSet) *decl {
	if overrides == nil {
		return nil
	}
	var last *attrOp
	for _, name := range []string{"build", "command", "builtin"} {
		for _, op := range overrides.ops[name] {
			if last == nil || op.seq > last.seq {
				last = op
			}
		}
	}
	if last == nil {
		return nil
	}
	return last.owner
}

func opsOf(ops []*attrOp, owner *decl) []*attrOp {
	var out []*attrOp
	for _, op := range ops {
		if op.owner == owner {
			out = append(out, op)
		}
	}
	return out
}

// controllerRun sets how the controller is started: exactly one of build,
// command and builtin, plus args and dir.
func (c *checker) controllerRun(out *ir.Controller, vals map[string]*value, what string, at diag.Range) {
	var set []string
	if v := vals["build"]; v != nil {
		set = append(set, "build")
		out.Build = c.buildPath(v)
	}
	if v := vals["command"]; v != nil {
		set = append(set, "command")
		out.Command = c.command(v)
	}
	if v := vals["builtin"]; v != nil {
		set = append(set, "builtin")
		out.Builtin, _ = c.str(v, "builtin")
		c.builtinName(v, out.Builtin)
	}
	switch {
	case len(set) == 0:
		c.errorf(at, "controller", "%s: no way to start it (set one of build, command, builtin)", what)
	case len(set) > 1:
		d := c.errorf(vals[set[1]].rng, "controller", "%s: set only one of build, command, builtin (both %s and %s are set)", what, set[0], set[1])
		related(d, set[0]+" is set here", vals[set[0]].rng)
	}
	if v := vals["args"]; v != nil {
		out.Args = c.strList(v, "args")
		for _, e := range elems(v) {
			c.portVars(e, "args")
		}
	}
	if v := vals["dir"]; v != nil {
		out.Dir, _ = c.filePath(v, "dir", true, false)
	}
}

// buildPath keeps a Go import path as written and rebases a relative
// package directory ("./controller").
func (c *checker) buildPath(v *value) string {
	s, ok := c.str(v, "build")
	if !ok {
		return ""
	}
	if strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || s == "." || s == ".." || strings.HasPrefix(s, "/") {
		p, ok := c.filePath(v, "build", true, true)
		if ok && v.file != nil && !v.file.std {
			if err := gomod.Check(v.file.osPath(s), s); err != nil {
				c.warnf(v.rng, "file", "%v", err)
			}
		}
		return p
	}
	return s
}

// command is a string (the program) or a list (program, then arguments).
// A program path with a slash is rebased like other paths.
func (c *checker) command(v *value) []string {
	cmd := c.strList(v, "command")
	if len(cmd) == 0 {
		if v.kind != kUnknown {
			c.errorf(v.rng, "controller", "command: empty")
		}
		return nil
	}
	if strings.Contains(cmd[0], "/") {
		prog := *elems(v)[0]
		if p, ok := c.filePath(&prog, "command", false, true); ok {
			cmd[0] = p
		}
	}
	return cmd
}

func (c *checker) controllerEnv(out *ir.Controller, vals map[string]*value) {
	v := vals["env"]
	if v == nil || v.use(kObject) {
		return
	}
	if v.kind != kObject {
		c.errorf(v.rng, "type", "env: want an object { NAME: \"value\" }, got %s", v.describe())
		return
	}
	for _, f := range v.fields {
		if len(f.path) != 1 {
			c.errorf(f.rng, "env", "env: variable name %q must be a single name", f.path)
			continue
		}
		val, ok := envString(f.val)
		if !ok {
			c.errorf(f.val.rng, "type", "env %s: want a string, number or bool, got %s", f.path, f.val.describe())
			continue
		}
		c.portVars(f.val, "env "+f.path.String())
		out.Env = append(out.Env, ir.EnvVar{Name: f.path[0].Key(), Value: val})
	}
}

func envString(v *value) (string, bool) {
	switch v.kind {
	case kString:
		return v.s, true
	case kInt, kFloat, kBool:
		return strings.Trim(jsonText(v.toAny()), `"`), true
	}
	return "", false
}

// controllerCluster sets CRDs, namespaces, kubeconfig, readiness and
// replaced built-in controllers.
func (c *checker) controllerCluster(out *ir.Controller, vals map[string]*value) {
	if v := vals["crds"]; v != nil {
		for _, e := range elems(v) {
			if p, ok := c.filePath(e, "crds", false, false); ok {
				out.CRDs = append(out.CRDs, p)
			}
		}
	}
	c.namespaces(out, vals)
	if v := vals["kubeconfig"]; v != nil {
		c.kubeconfig(out, v)
	}
	if v := vals["ready"]; v != nil {
		out.Ready = c.ready(v)
	}
	if v := vals["replaces"]; v != nil {
		out.Replaces = c.strList(v, "replaces")
		for _, e := range elems(v) {
			if e.kind == kString {
				c.builtinName(e, e.s)
			}
		}
	}
}

// builtinName reports name, written at v, if it is not a built-in
// controller's name.
func (c *checker) builtinName(v *value, name string) {
	if name == "" {
		return
	}
	if summary, h := kinds.CheckBuiltinController(name); summary != "" {
		hint(c.errorf(v.rng, "builtin", "%s", summary), h)
	}
}

func (c *checker) namespaces(out *ir.Controller, vals map[string]*value) {
	one, many := vals["namespace"], vals["namespaces"]
	if one != nil && many != nil {
		d := c.errorf(many.rng, "controller", "set namespace or namespaces, not both")
		related(d, "namespace is set here", one.rng)
	}
	var ns []string
	switch {
	case many != nil:
		ns = c.strList(many, "namespaces")
	case one != nil:
		if s, ok := c.str(one, "namespace"); ok {
			ns = []string{s}
		}
	}
	for _, n := range ns {
		if !ir.DNSLabel(n) {
			c.errorf(firstNonNil(many, one).rng, "namespace", "bad namespace %q (lowercase letters, digits and -)", n)
		}
	}
	if len(ns) > 0 {
		out.Namespaces = ns
	}
}

func firstNonNil(vs ...*value) *value {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

// kubeconfig is env, incluster, a flag string, or an object.
func (c *checker) kubeconfig(out *ir.Controller, v *value) {
	switch {
	case v.use(kWord):
	case v.kind == kString:
		out.Kubeconfig = ir.Kubeconfig{Flag: v.s}
	case v.kind == kObject:
		out.Kubeconfig = c.kubeconfigObject(v)
	default:
		w, ok := c.word(v, "kubeconfig", "env", "incluster")
		if ok {
			out.Kubeconfig = ir.Kubeconfig{Env: w == "env", InCluster: w == "incluster"}
		}
	}
}

// kubeconfigObject lowers the object form. KUBECONFIG is set unless a flag
// or in-cluster emulation is chosen, or env is set to false explicitly.
func (c *checker) kubeconfigObject(v *value) ir.Kubeconfig {
	var k ir.Kubeconfig
	envGiven := false
	for _, f := range v.fields {
		name := f.path.String()
		switch name {
		case "env":
			k.Env, _ = c.boolean(f.val, "kubeconfig env")
			envGiven = true
		case "incluster":
			k.InCluster, _ = c.boolean(f.val, "kubeconfig incluster")
		case "flag":
			k.Flag, _ = c.str(f.val, "kubeconfig flag")
		default:
			d := c.errorf(f.rng, "unknown", "unknown kubeconfig field %q", name)
			hint(d, spell.Hint(name, []string{"env", "incluster", "flag"}))
		}
	}
	if !envGiven {
		k.Env = k.Flag == "" && !k.InCluster
	}
	return k
}

// ready is { log: REGEXP | http: URL, within: D }.
func (c *checker) ready(v *value) *ir.Readiness {
	if v.use(kObject) {
		return nil
	}
	if v.kind != kObject {
		c.errorf(v.rng, "type", "ready: want { log: \"regexp\", within: 30s } or { http: \"url\" }, got %s", v.describe())
		return nil
	}
	r := &ir.Readiness{Src: v.rng, Timeout: ir.Duration(ir.DefaultReadyWithin)}
	for _, f := range v.fields {
		c.readyField(r, f)
	}
	if (r.LogLine == "") == (r.HTTPGet == "") {
		c.errorf(v.rng, "controller", "ready: set exactly one of log and http")
	}
	return r
}

func (c *checker) readyField(r *ir.Readiness, f *field) {
	name := f.path.String()
	switch name {
	case "log":
		r.LogLine, _ = c.str(f.val, "ready log")
		if _, err := regexp.Compile(r.LogLine); err != nil {
			c.errorf(f.val.rng, "regexp", "ready log: bad regular expression: %v", err)
		}
	case "http":
		r.HTTPGet, _ = c.str(f.val, "ready http")
		c.portVars(f.val, "ready http")
		if r.HTTPGet != "" && !strings.HasPrefix(r.HTTPGet, "http://") && !strings.HasPrefix(r.HTTPGet, "https://") {
			c.errorf(f.val.rng, "url", "ready http: want an http:// or https:// URL")
		}
	case "within":
		r.Timeout = c.toDuration(f.val, "ready within", true)
	default:
		d := c.errorf(f.rng, "unknown", "unknown ready field %q", name)
		hint(d, spell.Hint(name, []string{"log", "http", "within"}))
	}
}
