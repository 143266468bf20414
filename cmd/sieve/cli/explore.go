package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// exploreFlags are the flags of `sieve explore`.
type exploreFlags struct {
	includes   []string
	seed       string   // the seed CR's manifest
	crds       []string // CRD files; default the spec's controllers'
	number     uint64   // the seed number
	max        int
	only, skip []string
	print      bool
	name       string
	check      string // a trace of a run of the printed workload to judge
}

func newExploreCmd(g *globals) *cobra.Command {
	f := &exploreFlags{}
	cmd := &cobra.Command{
		Use:   "explore SPEC --seed FILE [--crd FILE] [--max N] [--only PATH] [--skip PATH] [--print | --check TRACE]",
		Short: "List the operations explored from a CRD's schema and a seed CR",
		Long: "Explore generates operations on the seed custom resource (--seed, a manifest:\n" +
			"its first object of a kind the CRDs define) from the openAPIV3Schema of its CRD: one\n" +
			"property changed per operation to another value the schema allows. The CRD\n" +
			"comes from --crd or else from the crds of SPEC's controllers. It prints the\n" +
			"operations, one a line (path, kind of change, new value; --output json: a\n" +
			"JSON array of {path, change, value}); with --print, a\n" +
			".sieve workload instead (the seed applied, then a merge patch and a settle\n" +
			"per operation; the seed's path relative to SPEC) to keep as a hand-written\n" +
			"workload. The same --seed-number gives the same operations; --max bounds\n" +
			"them; --only and --skip (repeatable) keep or drop properties by field path,\n" +
			"* for any field or index. See docs/explore.md.\n" +
			"It runs nothing (an explore step in a workload runs them in sieve run):\n" +
			"with --check TRACE it judges a recorded run of the printed\n" +
			"workload (same flags) with the consistency, rollback and health oracles and\n" +
			"prints their findings (exit status 1 when there are some).\n" +
			"Exit status 2 means a usage or spec error.",
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return runExplore(g, f, args[0]) },
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.includes, "include", "I", nil, includeUsage)
	fl.StringVar(&f.seed, "seed", "", "the manifest of the seed custom resource (required)")
	fl.StringArrayVar(&f.crds, "crd", nil, "a file of CRDs (repeatable; default the crds of SPEC's controllers)")
	fl.Uint64Var(&f.number, "seed-number", 0, "the seed of the choices made (which operations --max keeps, made-up strings)")
	fl.IntVar(&f.max, "max", explore.DefaultMax, "the largest number of operations")
	fl.StringArrayVar(&f.only, "only", nil, "explore only the properties at or under PATH (repeatable), e.g. spec.*")
	fl.StringArrayVar(&f.skip, "skip", nil, "leave out the properties at or under PATH (repeatable)")
	fl.BoolVar(&f.print, "print", false, "print the operations as a .sieve workload")
	fl.StringVar(&f.name, "name", "explored", "the name of the printed workload")
	fl.StringVar(&f.check, "check", "", "judge the trace `FILE` of a run of the printed workload (made with the same flags)")
	return cmd
}

func runExplore(g *globals, f *exploreFlags, file string) error {
	opts, err := exploreOptions(f)
	if err != nil {
		return usageErr(err)
	}
	spec, ds := load.Load(file, loadOptions(f.includes))
	if ds.HasErrors() {
		return g.failDiags(ds)
	}
	if err := g.printDiags(ds); err != nil { // warnings
		return infraErr(err)
	}
	r, err := exploreResource(f, spec)
	if err != nil {
		return usageErr(err)
	}
	ops := explore.Generate(r, opts)
	if f.print {
		return printExplored(g, f, spec, r, ops)
	}
	if f.check != "" {
		return checkExplored(g, f.check, spec, r, ops)
	}
	if err := writeOperations(g, ops); err != nil {
		return err
	}
	if !g.quiet && g.output != "json" {
		fmt.Fprintf(g.stderr, "%d %s on %s (nothing run: an explore step runs them in sieve run)\n",
			len(ops), plural(len(ops), "operation", "operations"), r.Key())
	}
	return nil
}

// writeOperations prints the operations one a line, numbered, or as a
// JSON array with --output json.
func writeOperations(g *globals, ops []explore.Operation) error {
	if g.output == "json" {
		b, err := json.MarshalIndent(ops, "", "  ")
		if err != nil {
			return infraErr(err)
		}
		_, err = fmt.Fprintf(g.stdout, "%s\n", b)
		return err
	}
	for i, op := range ops {
		if _, err := fmt.Fprintf(g.stdout, "%d. %s\n", i+1, op); err != nil {
			return err
		}
	}
	return nil
}

// checkExplored judges the trace file of a run of ops with the explored
// run's oracles, under the masks of the trace's test in spec, and prints
// the findings.
func checkExplored(g *globals, file string, spec *ir.Spec, r *explore.Resource, ops []explore.Operation) error {
	t, err := trace.Read(file)
	if err != nil {
		return usageErr(fmt.Errorf("explore: --check: %w", err))
	}
	masks := []*ir.Mask{pipeline.ClusterMask()}
	if test, ds := load.SelectTest(spec, t.Header.Test); ds == nil {
		ms, err := pipeline.Masks(test)
		if err != nil {
			return usageErr(fmt.Errorf("explore: --check: %w", err))
		}
		masks = ms.Oracle
	}
	fs, err := oracle.CheckExplored(t, oracle.Explored{Resource: resourceKey(r), Operations: ops}, oracle.Options{Masks: masks})
	if err != nil {
		return usageErr(fmt.Errorf("explore: --check: %w", err))
	}
	if err := writeExploredFindings(g, fs); err != nil {
		return infraErr(err)
	}
	if !g.quiet && g.output != "json" {
		fmt.Fprintf(g.stderr, "%d %s judged on %s: %d %s\n", len(ops), plural(len(ops), "operation", "operations"),
			r.Key(), len(fs), plural(len(fs), "finding", "findings"))
	}
	if len(fs) > 0 {
		return printedErr(exitFindings)
	}
	return nil
}

// resourceKey is the trace key of the explored resource.
func resourceKey(r *explore.Resource) trace.Key {
	apiVersion, _ := r.Object["apiVersion"].(string)
	kind, _ := r.Object["kind"].(string)
	group, _, _ := strings.Cut(apiVersion, "/")
	if !strings.Contains(apiVersion, "/") {
		group = ""
	}
	parts := strings.Split(r.Key(), "/")
	k := trace.Key{Kind: trace.KindName(group, kind), Name: parts[len(parts)-1]}
	if len(parts) == 3 {
		k.Namespace = parts[1]
	}
	return k
}

// writeExploredFindings prints findings one a paragraph (severity, check,
// object and path, then the message), or as a JSON array.
func writeExploredFindings(g *globals, fs []*oracle.Finding) error {
	if g.output == "json" {
		if fs == nil {
			fs = []*oracle.Finding{}
		}
		b, err := json.MarshalIndent(fs, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(g.stdout, "%s\n", b)
		return err
	}
	for _, f := range fs {
		subject := f.Key
		if f.Path != "" {
			subject += " " + f.Path
		}
		if _, err := fmt.Fprintf(g.stdout, "%-6s %s  %s\n       %s\n", strings.ToUpper(f.Severity.String()), f.Check, subject, f.Message); err != nil {
			return err
		}
	}
	return nil
}

// exploreOptions checks the flags and returns the generator's options.
func exploreOptions(f *exploreFlags) (explore.Options, error) {
	o := explore.Options{Seed: f.number, Max: f.max}
	if f.seed == "" {
		return o, errors.New("explore: --seed: missing (name the manifest of the seed custom resource)")
	}
	if f.print && f.check != "" {
		return o, errors.New("explore: --print and --check: give one (--print writes the workload, --check judges a run of it)")
	}
	if f.max < 1 {
		return o, fmt.Errorf("explore: --max: %d (want 1 or more)", f.max)
	}
	var err error
	if o.Only, err = patterns("--only", f.only); err != nil {
		return o, err
	}
	o.Skip, err = patterns("--skip", f.skip)
	return o, err
}

func patterns(flag string, texts []string) ([]ir.Path, error) {
	var out []ir.Path
	for _, t := range texts {
		p, err := ir.ParsePattern(t)
		if err != nil {
			return nil, fmt.Errorf("explore: %s: %w", flag, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// exploreResource reads the seed and the CRD files (--crd, else those of
// the spec's controllers) and finds the seed's schema.
func exploreResource(f *exploreFlags, spec *ir.Spec) (*explore.Resource, error) {
	files := f.crds
	if len(files) == 0 {
		files = specCRDs(spec)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("explore: %s: its controllers name no crds (give the CRD with --crd)", spec.File)
	}
	r, err := explore.LoadFiles(f.seed, files)
	if err != nil {
		return nil, fmt.Errorf("explore: %w", err)
	}
	return r, nil
}

// specCRDs returns the CRD files of the spec's controllers, once each,
// as paths from the working directory.
func specCRDs(spec *ir.Spec) []string {
	dir := filepath.Dir(filepath.FromSlash(spec.File))
	var out []string
	for _, t := range spec.Tests {
		if t.Controller == nil {
			continue
		}
		for _, c := range t.Controller.CRDs {
			if p := ir.OSPath(dir, c); !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// printExplored prints the operations as a workload whose apply names the
// seed relative to the spec's directory.
func printExplored(g *globals, f *exploreFlags, spec *ir.Spec, r *explore.Resource, ops []explore.Operation) error {
	seed := f.seed
	if rel, err := relTo(filepath.Dir(filepath.FromSlash(spec.File)), f.seed); err == nil {
		seed = rel
	}
	text, err := explore.Print(f.name, filepath.ToSlash(seed), r, ops)
	if err != nil {
		return usageErr(fmt.Errorf("explore: %w", err))
	}
	_, err = g.stdout.Write(text)
	return err
}

// relTo returns path relative to dir, both as seen from the working
// directory.
func relTo(dir, path string) (string, error) {
	a, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	b, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.Rel(a, b)
}
