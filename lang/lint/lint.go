package lint

import (
	"slices"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// staleRule is how stale-state plans are made (interp/analysis/plan, generator.stale),
// for the warning that a test's workloads give them nothing to start from.
const staleRule = "a stale plan starts at an object the controller deletes in the reference run " +
	"and fires when that object comes back; an object is usually deleted because the workload " +
	"deletes, patches or scales something (for instance: delete an object, then apply it again)"

// Lint reports what a compiled spec asks for but cannot get, whichever
// front end compiled it: a field that a wait, an invariant or a plan's
// trigger condition selects and that its kind's schema does not have (an
// error; see lintFields), and a fault pattern that the
// test's workloads give no way to yield plans (a warning, which does not
// make a spec fail). baseDir is the directory the IR's paths (CRD files)
// are relative to.
func Lint(spec *ir.Spec, baseDir string) diag.Diagnostics {
	return LintSources(spec, baseDir, nil)
}

// LintSources is Lint for a spec some of whose files the caller holds
// (an editor's unsaved buffers): sources maps a file name, as the spec's
// positions give it, to its text, and other files are read from disk to
// place diagnostics inside expressions.
func LintSources(spec *ir.Spec, baseDir string, sources map[string][]byte) diag.Diagnostics {
	if spec == nil {
		return nil
	}
	var ds diag.Diagnostics
	for _, t := range spec.Tests {
		if d := lintStale(t); d != nil {
			ds = append(ds, d)
		}
	}
	return append(ds, lintFields(spec, baseDir, sources)...)
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
