package lint

import (
	"cmp"
	"fmt"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/kinds"
	"github.com/sievetool/sieve/lang/manifest"
)

// OlderAPIs reports, whichever front end compiled the spec, each object of
// a test on the default Kubernetes line — a CRD file of its controller, or
// an object an apply step creates — written in an API version that only an
// older line serves (an apiextensions.k8s.io/v1beta1 CRD): the default
// line's API server refuses it, and the run would fail only once a control
// plane started. baseDir is the directory the IR's paths are relative to;
// line, if not empty, is the line every test runs on whatever it says
// (the command line's choice: an older line, or kinds.DefaultKubernetes).
func OlderAPIs(spec *ir.Spec, baseDir, line string) diag.Diagnostics {
	if spec == nil {
		return nil
	}
	var ds diag.Diagnostics
	seen := map[string]bool{}
	add := func(d *diag.Diagnostic) {
		if key := d.Subject.String() + d.Summary; !seen[key] {
			seen[key] = true
			ds = append(ds, d)
		}
	}
	for _, t := range spec.Tests {
		if on := cmp.Or(line, t.Kubernetes); (on != "" && on != kinds.DefaultKubernetes) || t.Controller == nil {
			continue
		}
		for _, f := range t.Controller.CRDs {
			objs, _ := manifest.ReadFile(ir.OSPath(baseDir, f))
			for _, o := range objs {
				if d := olderAPI(t, t.Controller.Src, "controller "+t.Controller.Name+": crds: "+f+": ", o); d != nil {
					add(d)
				}
			}
		}
		for _, w := range t.Workloads {
			for _, s := range w.Steps {
				if s.Kind != ir.StepApply {
					continue
				}
				objs, where := manifestObjects(baseDir, s)
				for _, o := range objs {
					if d := olderAPI(t, s.Src, "apply: "+where, o); d != nil {
						add(d)
					}
				}
			}
		}
	}
	return ds
}

// olderAPI is the error for object o of test t, written at src (what
// says where it is written), when only an older line serves its
// apiVersion; nil otherwise.
func olderAPI(t *ir.Test, src diag.Range, what string, o manifest.Object) *diag.Diagnostic {
	line, instead := olderLine(o.APIVersion, o.Kind)
	if line == "" {
		return nil
	}
	d := diag.Errorf(src, "older-api", "%sline %d: %s %s is served only by Kubernetes %s, and test %s runs on the default line, %s",
		what, o.Line, o.Kind, o.APIVersion, line, t.Name, kinds.DefaultKubernetes)
	d.Detail = fmt.Sprintf("write it as %s, or give the test kubernetes %q", instead, line)
	return d
}

// olderLine says which older Kubernetes line (ir.KubernetesLines) serves
// an apiVersion and kind that the default line no longer serves, and the
// apiVersion to write instead; "" when the default line serves it.
func olderLine(apiVersion, kind string) (line, instead string) {
	switch apiVersion + " " + kind {
	case "apiextensions.k8s.io/v1beta1 CustomResourceDefinition":
		return "1.21", "apiextensions.k8s.io/v1"
	case "policy/v1beta1 PodDisruptionBudget":
		return "1.21", "policy/v1"
	case "batch/v1beta1 CronJob":
		return "1.21", "batch/v1"
	}
	return "", ""
}
