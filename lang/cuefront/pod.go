package cuefront

import (
	"slices"
	"strings"

	"cuelang.org/go/cue"

	"github.com/sievetool/sieve/lang/ir"
)

// pod lowers a controller's pod: labels, serviceAccount and env
// (downward-API field paths), as the .sieve checker does.
func (l *lowerer) pod(c *ir.Controller, v cue.Value) *ir.Pod {
	if !c.Kubeconfig.InCluster {
		l.errorf(v, "controller", "pod: only an emulated pod has one (set kubeconfig: \"incluster\")")
	}
	p := &ir.Pod{Src: l.rng(v), ServiceAccount: str(v, "serviceAccount")}
	if f, ok := field(v, "labels"); ok {
		p.Labels = map[string]string{}
		for _, e := range fields(f) {
			p.Labels[e.name], _ = e.v.String()
		}
	}
	if f, ok := field(v, "env"); ok {
		for _, e := range fields(f) {
			path, _ := e.v.String()
			p.FieldEnv = append(p.FieldEnv, ir.EnvVar{Name: e.name, Value: path})
			if !podFieldPath(path) {
				l.errorf(e.v, "pod", "pod env %s: unknown field path %q (one of %s, metadata.labels['KEY'], metadata.annotations['KEY'])", e.name, path, strings.Join(ir.PodFieldPaths, ", "))
			}
		}
	}
	return p
}

func podFieldPath(path string) bool {
	for _, prefix := range []string{"metadata.labels['", "metadata.annotations['"} {
		if strings.HasPrefix(path, prefix) && strings.HasSuffix(path, "']") && len(path) > len(prefix)+2 {
			return true
		}
	}
	return slices.Contains(ir.PodFieldPaths, path)
}
