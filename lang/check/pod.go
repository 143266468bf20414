package check

import (
	"slices"
	"strings"

	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
)

var podFields = []string{"labels", "serviceAccount", "env"}

// controllerPod lowers the pod attribute: { labels: {...},
// serviceAccount: "name", env: { VAR: "field.path" } }, which only an
// emulated pod (kubeconfig incluster) has.
func (c *checker) controllerPod(out *ir.Controller, vals map[string]*value) {
	v := vals["pod"]
	if v == nil || v.use(kObject) {
		return
	}
	if v.kind != kObject {
		c.errorf(v.rng, "type", "pod: want { labels: {...}, serviceAccount: \"name\", env: {...} }, got %s", v.describe())
		return
	}
	if !out.Kubeconfig.InCluster {
		hint(c.errorf(v.rng, "controller", "pod: only an emulated pod has one"), "set kubeconfig incluster")
	}
	p := &ir.Pod{Src: v.rng}
	for _, f := range v.fields {
		name := f.path.String()
		switch name {
		case "labels":
			p.Labels = c.stringMap(f.val, "pod labels")
		case "serviceAccount":
			p.ServiceAccount, _ = c.str(f.val, "pod serviceAccount")
		case "env":
			c.podEnv(p, f.val)
		default:
			hint(c.errorf(f.rng, "unknown", "unknown pod field %q", name), spell.Hint(name, podFields))
		}
	}
	out.Pod = p
}

// stringMap lowers an object of one-name fields with string values.
func (c *checker) stringMap(v *value, what string) map[string]string {
	if v.use(kObject) {
		return nil
	}
	if v.kind != kObject {
		c.errorf(v.rng, "type", "%s: want an object { name: \"value\" }, got %s", what, v.describe())
		return nil
	}
	out := map[string]string{}
	for _, f := range v.fields {
		if len(f.path) != 1 {
			hint(c.errorf(f.rng, "type", "%s: %q must be a single name", what, f.path), `quote a name with dots: "app.kubernetes.io/name": "x"`)
			continue
		}
		if s, ok := c.str(f.val, what+" "+f.path[0].Key()); ok {
			out[f.path[0].Key()] = s
		}
	}
	return out
}

// podEnv lowers the downward-API variables: VAR: "metadata.name".
func (c *checker) podEnv(p *ir.Pod, v *value) {
	if c.stringMap(v, "pod env") == nil {
		return
	}
	for _, f := range v.fields {
		if len(f.path) != 1 || f.val.kind != kString {
			continue // reported by stringMap
		}
		path := f.val.s
		p.FieldEnv = append(p.FieldEnv, ir.EnvVar{Name: f.path[0].Key(), Value: path})
		if !podFieldPath(path) {
			d := c.errorf(f.val.rng, "pod", "pod env %s: unknown field path %q", f.path[0].Key(), path)
			hint(d, "one of "+strings.Join(ir.PodFieldPaths, ", ")+", metadata.labels['KEY'], metadata.annotations['KEY']")
		}
	}
}

func podFieldPath(path string) bool {
	for _, prefix := range []string{"metadata.labels['", "metadata.annotations['"} {
		if strings.HasPrefix(path, prefix) && strings.HasSuffix(path, "']") && len(path) > len(prefix)+2 {
			return true
		}
	}
	return slices.Contains(ir.PodFieldPaths, path)
}
