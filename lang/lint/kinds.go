package lint

import (
	"slices"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/manifest"
)

// UnknownKinds warns, whichever front end compiled the spec, about each
// object an apply step creates whose apiVersion and kind are neither
// built in (lang/kinds) nor defined by its test's CRD files:
// a misspelt kind fails only at run time, after a control plane started.
// It is a warning, since a controller may install its CRDs itself.
// baseDir is the directory the IR's paths are relative to.
func UnknownKinds(spec *ir.Spec, baseDir string) diag.Diagnostics {
	if spec == nil {
		return nil
	}
	var ds diag.Diagnostics
	seen := map[string]bool{}
	for _, t := range spec.Tests {
		known := manifest.NewKinds(crdObjects(baseDir, t.Controller))
		for _, w := range t.Workloads {
			for _, s := range w.Steps {
				for _, d := range unknownKinds(baseDir, s, known) {
					if key := d.Subject.String() + d.Summary; !seen[key] {
						seen[key] = true
						ds = append(ds, d)
					}
				}
			}
		}
	}
	return ds
}

// crdObjects are the objects of a controller's CRD files (the front ends
// have checked them; a file that cannot be read adds nothing).
func crdObjects(baseDir string, c *ir.Controller) []manifest.Object {
	if c == nil {
		return nil
	}
	var out []manifest.Object
	for _, f := range c.CRDs {
		objs, _ := manifest.ReadFile(ir.OSPath(baseDir, f))
		out = append(out, objs...)
	}
	return out
}

// unknownKinds are the warnings for the objects of apply step s.
func unknownKinds(baseDir string, s *ir.Step, known manifest.Kinds) diag.Diagnostics {
	if s.Kind != ir.StepApply || slices.ContainsFunc(s.Set, func(f ir.FieldSet) bool { return f.Path == "kind" || f.Path == "apiVersion" }) {
		return nil
	}
	objs, where := manifestObjects(baseDir, s)
	var ds diag.Diagnostics
	for _, o := range objs {
		why, hint := known.Unknown(o)
		if why == "" {
			continue
		}
		d := diag.Errorf(s.Src, "unknown-kind", "apply: %sline %d: %s (%s)", where, o.Line, why, hint)
		d.Severity = diag.Warning
		ds = append(ds, d)
	}
	return ds
}

// manifestObjects are the objects step s applies, and where they are
// written, for messages ("FILE: " or "inline manifest: ").
func manifestObjects(baseDir string, s *ir.Step) ([]manifest.Object, string) {
	if s.File != "" {
		objs, _ := manifest.ReadFile(ir.OSPath(baseDir, s.File))
		return objs, s.File + ": "
	}
	objs, _ := manifest.Parse([]byte(s.Manifest))
	return objs, "inline manifest: "
}
