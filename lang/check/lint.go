package check

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/input"
	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
)

// staleRule is how stale-state plans are made (interp/plan, generator.stale),
// for the warning that a test's workloads give them nothing to start from.
const staleRule = "a stale plan starts at an object the controller deletes in the reference run " +
	"and fires when that object comes back; an object is usually deleted because the workload " +
	"deletes, patches or scales something (for instance: delete an object, then apply it again)"

// Lint reports what a compiled spec asks for but cannot get, whichever
// front end compiled it: a CEL wait condition that selects a field its
// target's kind does not have (an error), and a fault pattern that the
// test's workloads give no way to yield plans (a warning, which does not
// make a spec fail). baseDir is the directory the IR's paths (CRD files)
// are relative to.
func Lint(spec *ir.Spec, baseDir string) diag.Diagnostics {
	if spec == nil {
		return nil
	}
	var ds diag.Diagnostics
	for _, t := range spec.Tests {
		if d := lintStale(t); d != nil {
			ds = append(ds, d)
		}
	}
	return append(ds, lintWaitFields(spec, baseDir)...)
}

// topFields are the top-level fields of built-in kinds, for the check
// that a CEL wait condition selects a field its target's kind has. Kinds
// not listed are not checked.
func topFields(kind string) []string {
	common := []string{"apiVersion", "kind", "metadata"}
	switch kind {
	case "pod", "deployment", "statefulset", "replicaset", "daemonset", "job", "cronjob", "service",
		"persistentvolumeclaim", "persistentvolume", "namespace", "node", "replicationcontroller",
		"poddisruptionbudget", "customresourcedefinition", "horizontalpodautoscaler":
		return append(common, "spec", "status")
	case "lease":
		return append(common, "spec")
	case "configmap":
		return append(common, "data", "binaryData", "immutable")
	case "secret":
		return append(common, "data", "stringData", "type", "immutable")
	case "serviceaccount":
		return append(common, "secrets", "imagePullSecrets", "automountServiceAccountToken")
	case "endpoints":
		return append(common, "subsets")
	case "role":
		return append(common, "rules")
	case "clusterrole":
		return append(common, "rules", "aggregationRule")
	case "rolebinding", "clusterrolebinding":
		return append(common, "subjects", "roleRef")
	}
	return nil
}

// lintWaitFields reports a CEL wait condition on a built-in kind that
// selects a top-level field the kind does not have (object.sepc): the
// wait would meet a missing field and wait until it times out. Each
// workload is checked once, as the tests use it.
func lintWaitFields(spec *ir.Spec, baseDir string) diag.Diagnostics {
	env, err := celenv.New()
	if err != nil {
		return nil
	}
	var ds diag.Diagnostics
	seen := map[*ir.Step]bool{}
	for _, t := range spec.Tests {
		for _, w := range t.Workloads {
			for _, s := range w.Steps {
				if seen[s] || s.Kind != ir.StepWait || s.Target == nil || s.Until == nil || s.Until.Kind != ir.WaitCEL {
					continue
				}
				seen[s] = true
				known := topFields(s.Target.Kind)
				if known == nil && t.Controller != nil {
					known = crdFields(baseDir, t.Controller.CRDs, s.Target.Kind)
				}
				ds = append(ds, unknownFields(env, s, known)...)
			}
		}
	}
	return ds
}

// docSeparator is the line between two YAML documents.
var docSeparator = regexp.MustCompile(`(?m)^---\s*$`)

// crdFields returns the top-level fields of kind (lowercase singular,
// optionally with its group) that the openAPIV3Schema of its CRD among
// files declares, or nil when no CRD defines kind or a version's schema
// leaves its fields open.
func crdFields(baseDir string, files []string, kind string) []string {
	for _, f := range files {
		// The front end has checked each file (size, YAML, aliases) already.
		b, err := input.ReadFile(ir.OSPath(baseDir, f), input.ManifestLimit)
		if err != nil {
			continue
		}
		for _, doc := range docSeparator.Split(string(b), -1) {
			var crd struct {
				Kind string
				Spec struct {
					Group    string
					Names    struct{ Kind, Singular string }
					Versions []struct {
						Schema *struct {
							OpenAPIV3Schema *struct {
								Properties     map[string]any
								PreserveFields bool `json:"x-kubernetes-preserve-unknown-fields"`
							} `json:"openAPIV3Schema"`
						}
					}
				}
			}
			if yaml.Unmarshal([]byte(doc), &crd) != nil || crd.Kind != "CustomResourceDefinition" {
				continue
			}
			singular := cmp.Or(crd.Spec.Names.Singular, strings.ToLower(crd.Spec.Names.Kind))
			if kind != singular && kind != singular+"."+crd.Spec.Group {
				continue
			}
			fields := []string{"apiVersion", "kind", "metadata"}
			for _, v := range crd.Spec.Versions {
				if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil || v.Schema.OpenAPIV3Schema.PreserveFields || len(v.Schema.OpenAPIV3Schema.Properties) == 0 {
					return nil
				}
				for name := range v.Schema.OpenAPIV3Schema.Properties {
					if !slices.Contains(fields, name) {
						fields = append(fields, name)
					}
				}
			}
			slices.Sort(fields[3:])
			return fields
		}
	}
	return nil
}

// unknownFields reports the top-level fields of object that step s's
// condition selects and known (its target kind's fields) does not hold.
func unknownFields(env *celenv.Env, s *ir.Step, known []string) diag.Diagnostics {
	if known == nil {
		return nil
	}
	var ds diag.Diagnostics
	for _, f := range env.ObjectFields(celenv.Wait, s.Until.Expr) {
		if slices.Contains(known, f.Name) {
			continue
		}
		d := diag.Errorf(s.Src, "field", "wait: %s has no field %q (object.%s at %d:%d of the condition; fields: %s)",
			s.Target.Kind, f.Name, f.Name, f.Line, f.Column, strings.Join(known, ", "))
		d.Detail = spell.Hint(f.Name, known)
		if d.Detail == "" {
			d.Detail = "the API server never sets it, so the wait would time out"
		}
		ds = append(ds, d)
	}
	return ds
}

// lintStale warns when a policy of t asks for stale plans only and no
// workload step of t deletes, patches or scales anything, nor applies the
// same manifest twice: the controller then has no reason to delete
// anything, and the policy no plan. (A policy that also asks for other
// patterns, such as faults.all, still yields those.)
func lintStale(t *ir.Test) *diag.Diagnostic {
	var pol *ir.Policy
	for _, p := range t.Policies {
		if len(p.Patterns) > 0 && !slices.ContainsFunc(p.Patterns, func(x ir.Pattern) bool { return x != ir.Stale }) {
			pol = p
			break
		}
	}
	if pol == nil || mayMakeDeletes(t.Workloads) {
		return nil
	}
	d := diag.Errorf(t.Src, "no-plans", "test %s: pattern stale (policy %s) will likely yield no plans: no workload step deletes, patches or scales anything", t.Name, pol.Name)
	d.Severity = diag.Warning
	d.Detail = staleRule
	if pol.Src.IsValid() {
		d.Related = append(d.Related, diag.Related{Message: "policy " + pol.Name + " asks for stale plans here", Subject: pol.Src})
	}
	return d
}

// mayMakeDeletes reports whether the workloads take something away or
// change it: a delete, patch or scale step, or a manifest applied twice.
func mayMakeDeletes(ws []*ir.Workload) bool {
	applied := map[string]bool{}
	for _, w := range ws {
		for _, s := range w.Steps {
			switch s.Kind {
			case ir.StepDelete, ir.StepPatch, ir.StepScale:
				return true
			case ir.StepApply:
				what := s.File + "\x00" + s.Manifest
				if applied[what] {
					return true
				}
				applied[what] = true
			}
		}
	}
	return false
}
