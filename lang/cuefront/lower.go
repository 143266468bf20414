package cuefront

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"

	"cuelang.org/go/cue"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/internal/gomod"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/kinds"
)

// lower turns the validated spec into IR: one self-contained ir.Test per
// field of test, in order. A spec without tests (a library) is not an
// error here; verbs that need a test say so.
func lower(src *source, orig, v cue.Value) (*ir.Spec, diag.Diagnostics) {
	l := &lowerer{src: src, orig: orig}
	spec := &ir.Spec{Version: ir.Version, File: filepath.ToSlash(src.given), Tests: []*ir.Test{}}
	tests, _ := field(v, "test")
	for _, f := range fields(tests) {
		spec.Tests = append(spec.Tests, l.test(f.name, f.v))
	}
	l.checkDecls(v)
	return spec, l.ds
}

// checkDecls lowers the top-level declarations, used or not, so their
// problems (missing files, bad CEL, bad keys) are reported like the .sieve
// checker reports them; the IR is dropped. Workloads with parameters that
// have no default cannot be lowered on their own and are left to their
// uses. Problems already reported through a test are the same diagnostics
// and are dropped when sorted.
func (l *lowerer) checkDecls(v cue.Value) {
	each := func(name string, lower func(cue.Value)) {
		coll, _ := field(v, name)
		for _, f := range fields(coll) {
			if f.v.Validate(cue.Concrete(true)) == nil {
				lower(f.v)
			}
		}
	}
	each("controllers", func(c cue.Value) { l.controller(c, cue.Value{}) })
	each("workload", func(w cue.Value) { l.workload(w) })
	each("policy", func(p cue.Value) { l.policy(p) })
	each("mask", func(m cue.Value) { l.mask(m) })
	each("invariant", func(i cue.Value) { l.invariant(i) })
	each("plan", func(p cue.Value) { l.plan(p) })
}

func (l *lowerer) test(name string, v cue.Value) *ir.Test {
	t := ir.NewTest(name, l.rng(v))
	t.Runs = l.count(v, "runs", ir.DefaultRuns, ir.CountRuns)
	ctl, _ := field(v, "controller")
	t.Controller = l.controller(ctl, v)
	for _, w := range elems(v, "workloads") {
		t.Workloads = append(t.Workloads, l.workload(w))
	}
	for _, p := range elems(v, "policies") {
		t.Policies = append(t.Policies, l.policy(p))
	}
	for _, m := range elems(v, "masks") {
		t.Masks = append(t.Masks, l.mask(m))
	}
	for _, i := range elems(v, "invariants") {
		t.Invariants = append(t.Invariants, l.invariant(i))
	}
	for _, p := range elems(v, "plans") {
		t.Plans = append(t.Plans, l.plan(p))
	}
	if f, ok := field(v, "converge"); ok {
		d := l.durationOf(f)
		t.Converge = &d
	}
	if f, ok := field(v, "quiet"); ok {
		d := l.durationOf(f)
		t.Quiet = &d
	}
	l.settleBounds(t, v)
	l.ds = append(l.ds, explore.Expand(t, l.src.dir, l.explores)...)
	if f, ok := field(v, "kubernetes"); ok {
		t.Kubernetes, _ = f.String() // the schema allows only KubernetesLines and the default
		if t.Kubernetes == kinds.DefaultKubernetes {
			t.Kubernetes = ""
		}
	}
	return t
}

// settleBounds lowers test v's settle window and bound on a settle into
// t and checks them against each other (ir.CheckSettle), as the .sieve
// checker does.
func (l *lowerer) settleBounds(t *ir.Test, v cue.Value) {
	at, ok := field(v, "settle")
	if ok {
		d := l.positive(v, "settle", 0)
		t.Settle = &d
	}
	if f, ok := field(v, "settle_max"); ok {
		d := l.positive(v, "settle_max", 0)
		t.SettleMax, at = &d, f
	}
	if msg := ir.CheckSettle(t); msg != "" {
		l.errorf(at, "duration", "%s", msg)
	}
}

// controller lowers the controller cv, with attributes the test tv sets
// overriding the controller's one by one, as in the .sieve language.
func (l *lowerer) controller(cv, tv cue.Value) *ir.Controller {
	name := str(cv, "name")
	c := ir.NewController(name, l.rng(cv))
	attr := func(n string) (cue.Value, bool) {
		if f, ok := field(tv, n); ok {
			return f, true
		}
		return field(cv, n)
	}
	l.controllerRun(c, attr, cv)
	if f, ok := attr("env"); ok {
		c.Env = l.envVars(f)
	}
	if f, ok := attr("crds"); ok {
		for _, e := range listOf(f) {
			c.CRDs = append(c.CRDs, l.file(e, "crds", false, false))
		}
	}
	l.namespaces(c, attr)
	if f, ok := attr("kubeconfig"); ok {
		c.Kubeconfig = l.kubeconfig(f)
	}
	if summary, hint := ir.CheckControllerName(name, c.Kubeconfig.InCluster, false); summary != "" {
		l.errorf(cv, "controller", "%s", summary)
		l.ds[len(l.ds)-1].Detail = hint
	}
	if f, ok := attr("ready"); ok {
		c.Ready = l.ready(f)
	}
	if f, ok := attr("replaces"); ok {
		c.Replaces = stringsOf(f)
		for _, e := range listOf(f) {
			s, _ := e.String()
			l.builtinName(e, s)
		}
	}
	if f, ok := attr("exec"); ok {
		c.Exec = l.execStandIns(f)
	}
	if f, ok := attr("pod"); ok {
		c.Pod = l.pod(c, f)
	}
	if f, ok := attr("standin"); ok {
		c.Standins = l.standins(f)
	}
	return c
}

// builtinName reports name, the value v, if it is not a built-in
// controller's name.
func (l *lowerer) builtinName(v cue.Value, name string) {
	if name == "" {
		return
	}
	if summary, hint := kinds.CheckBuiltinController(name); summary != "" {
		l.errorf(v, "builtin", "%s", summary)
		l.ds[len(l.ds)-1].Detail = hint
	}
}

// controllerRun sets how the controller starts: exactly one of build,
// command and builtin, plus args and dir.
func (l *lowerer) controllerRun(c *ir.Controller, attr func(string) (cue.Value, bool), at cue.Value) {
	var set []string
	if f, ok := attr("build"); ok {
		set, c.Build = append(set, "build"), l.buildPath(f)
	}
	if f, ok := attr("command"); ok {
		set, c.Command = append(set, "command"), l.command(f)
	}
	if f, ok := attr("builtin"); ok {
		set = append(set, "builtin")
		c.Builtin, _ = f.String()
		l.builtinName(f, c.Builtin)
	}
	what := "controller " + c.Name
	switch {
	case len(set) == 0:
		l.errorf(at, "controller", "%s: no way to start it (set one of build, command, builtin)", what)
	case len(set) > 1:
		l.errorf(at, "controller", "%s: set only one of build, command, builtin (both %s and %s are set)", what, set[0], set[1])
	}
	if f, ok := attr("args"); ok {
		c.Args = stringsOf(f)
		for _, e := range listOf(f) {
			l.portVars(e, "args")
		}
	}
	if f, ok := attr("dir"); ok {
		c.Dir = l.file(f, "dir", true, false)
	}
}

// buildPath keeps a Go import path as written and rebases a relative
// package directory, keeping the ./ that marks it.
func (l *lowerer) buildPath(f cue.Value) string {
	s, _ := f.String()
	if strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || s == "." || s == ".." || strings.HasPrefix(s, "/") {
		if err := gomod.Check(l.abs(f, s), s); err != nil {
			l.warnf(f, "file", "%v", err)
		}
		return l.file(f, "build", true, true)
	}
	return s
}

// command accepts a string (the program) or a list (program, arguments);
// a program path with a slash is rebased like other paths.
func (l *lowerer) command(f cue.Value) []string {
	var cmd []string
	prog := f
	if s, err := f.String(); err == nil {
		cmd = []string{s}
	} else {
		cmd = stringsOf(f)
		prog = listOf(f)[0]
	}
	if strings.Contains(cmd[0], "/") {
		cmd[0] = l.file(prog, "command", false, true)
	}
	return cmd
}

// envVars lowers env: variable name -> string, number or bool.
func (l *lowerer) envVars(f cue.Value) []ir.EnvVar {
	var out []ir.EnvVar
	for _, e := range fields(f) {
		val := ""
		if s, err := e.v.String(); err == nil {
			val = s
		} else {
			b, _ := json.Marshal(l.value(e.v))
			val = string(b)
		}
		l.portVars(e.v, "env "+e.name)
		out = append(out, ir.EnvVar{Name: e.name, Value: val})
	}
	return out
}

var nameRE = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

func (l *lowerer) namespaces(c *ir.Controller, attr func(string) (cue.Value, bool)) {
	one, hasOne := attr("namespace")
	many, hasMany := attr("namespaces")
	at := one
	switch {
	case hasOne && hasMany:
		l.errorf(many, "controller", "set namespace or namespaces, not both")
	case hasMany:
		c.Namespaces, at = stringsOf(many), many
	case hasOne:
		s, _ := one.String()
		c.Namespaces = []string{s}
	}
	for _, n := range c.Namespaces {
		if len(n) > 63 || !nameRE.MatchString(n) {
			l.errorf(at, "namespace", "bad namespace %q (lowercase letters, digits and -)", n)
		}
	}
}

// kubeconfig: "env", "incluster", a flag ("--kubeconfig") or a struct
// (like the .sieve object form: KUBECONFIG is set unless a flag or
// in-cluster emulation is chosen, or env is false explicitly).
func (l *lowerer) kubeconfig(f cue.Value) ir.Kubeconfig {
	if s, err := f.String(); err == nil {
		switch s {
		case "env":
			return ir.Kubeconfig{Env: true}
		case "incluster":
			return ir.Kubeconfig{InCluster: true}
		}
		return ir.Kubeconfig{Flag: s}
	}
	k := ir.Kubeconfig{Flag: str(f, "flag"), InCluster: boolean(f, "incluster", false)}
	k.Env = boolean(f, "env", k.Flag == "" && !k.InCluster)
	return k
}

func (l *lowerer) ready(v cue.Value) *ir.Readiness {
	r := &ir.Readiness{Src: l.rng(v), Timeout: l.positive(v, "within", ir.DefaultReadyWithin)}
	r.LogLine, r.HTTPGet = str(v, "log"), str(v, "http")
	if (r.LogLine == "") == (r.HTTPGet == "") {
		l.errorf(v, "controller", "ready: set exactly one of log and http")
	}
	if f, ok := field(v, "log"); ok {
		if _, err := regexp.Compile(r.LogLine); err != nil {
			l.errorf(f, "regexp", "ready log: bad regular expression: %v", err)
		}
	}
	if f, ok := field(v, "http"); ok {
		l.portVars(f, "ready http")
	}
	if f, ok := field(v, "http"); ok && !strings.HasPrefix(r.HTTPGet, "http://") && !strings.HasPrefix(r.HTTPGet, "https://") {
		l.errorf(f, "url", "ready http: want an http:// or https:// URL")
	}
	return r
}
