package cuefront

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/metrics"
	"time"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/load"
	"cuelang.org/go/cue/token"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/input"
	"github.com/sievetool/sieve/lang/ir"
)

// Options says how to load a CUE spec. The zero value is the default. CUE
// specs find their imports through their own CUE module and the embedded
// sieve.dev packages, not the .sieve search path.
type Options struct {
	// Timeout bounds the time CUE may take to load and evaluate the spec.
	// Defaults to DefaultTimeout.
	Timeout time.Duration
	// MaxHeap bounds how far the heap may grow while CUE loads and
	// evaluates the spec, in bytes. Defaults to DefaultMaxHeap.
	MaxHeap uint64
	// Sources are the texts of spec files the caller holds (an editor's
	// unsaved buffers), by absolute path: each stands for the file on
	// disk, which need not exist. If nil, every file is read from disk.
	Sources map[string][]byte
}

// DefaultMaxHeap is the default Options.MaxHeap: 2 GiB. Real specs take a
// few megabytes; a few lines of CUE (string concatenation, comprehensions
// over long lists) can take gigabytes within the time bound.
const DefaultMaxHeap = 2 << 30

// heapEvery is how often Load samples the heap during evaluation.
const heapEvery = 10 * time.Millisecond

// DefaultTimeout is the default Options.Timeout. Real specs evaluate in
// well under a second; the CUE evaluator is quadratic in places (a list
// of 100,000 elements takes over a minute), and cue.Value has no way to be
// cancelled, so the bound is a wall-clock one.
const DefaultTimeout = 10 * time.Second

// Load reads the CUE spec at path — a .cue file or a directory holding a
// CUE package — and lowers it to IR. It returns the IR (nil when there are
// errors) and every diagnostic, sorted. An evaluation that takes longer
// than opts.Timeout, or grows the heap by more than opts.MaxHeap, is an
// error. The CUE evaluator cannot be stopped, so it runs on in the
// background until it ends; a command line tool that then exits can
// afford that.
func Load(path string, opts Options) (*ir.Spec, diag.Diagnostics) {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	maxHeap := opts.MaxHeap
	if maxHeap == 0 {
		maxHeap = DefaultMaxHeap
	}
	type result struct {
		spec *ir.Spec
		ds   diag.Diagnostics
	}
	done := make(chan result, 1)
	go func() {
		spec, ds := loadSpec(path, opts.Sources)
		done <- result{spec, ds}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	tick := time.NewTicker(heapEvery)
	defer tick.Stop()
	base := heapBytes()
	for {
		select {
		case r := <-done:
			return r.spec, r.ds
		case <-timer.C:
			return nil, fileDiags(path, "budget", "CUE evaluation took longer than %s (the limit): "+
				"the CUE evaluator is slow on very long lists and long chains of references (make them shorter)", timeout)
		case <-tick.C:
			if h := heapBytes(); h > base && h-base > maxHeap {
				return nil, fileDiags(path, "budget", "CUE evaluation took more than %s of memory (the limit): "+
					"long strings built by concatenation and comprehensions over long lists take the most (make them shorter)", input.Size(int64(maxHeap)))
			}
		}
	}
}

// heapBytes is the memory the heap's objects take now, live or not yet
// collected: runtime/metrics reads it without stopping the world.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// loadSpec is Load without the time bound.
func loadSpec(path string, sources map[string][]byte) (spec *ir.Spec, ds diag.Diagnostics) {
	defer func() {
		// The CUE evaluator is not ours; a panic in it must not take the
		// CLI down with a stack trace.
		if r := recover(); r != nil {
			spec, ds = nil, fileDiags(path, "internal", "internal error while evaluating CUE: %v (please report it)", r)
		}
	}()
	src, ds := newSource(path, sources)
	if ds.HasErrors() {
		return nil, ds
	}
	orig, v, ds := src.build()
	if ds.HasErrors() {
		return nil, ds.Sort()
	}
	spec, ds = lower(src, orig, v)
	if ds.HasErrors() {
		return nil, ds.Sort()
	}
	return spec, ds.Sort()
}

// source is one spec being loaded: where it is and what cue/load needs.
type source struct {
	given   string // the path as given
	abs     string // absolute path of the file or directory
	dir     string // absolute directory paths are relative to
	isDir   bool
	modRoot string // CUE module root (may be virtual)
	module  string // its module path, without the major version; "" if virtual
	overlay map[string]load.Source
	files   map[string][]byte // source text by absolute file name, for columns
	orig    cue.Value         // the instance as written, once built
}

func newSource(path string, sources map[string][]byte) (*source, diag.Diagnostics) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fileDiags(path, "read", "cannot resolve spec path: %v", err)
	}
	_, held := sources[abs]
	info, err := os.Stat(abs)
	if err != nil && !held {
		return nil, fileDiags(path, "read", "cannot read spec: %s", pathErr(err))
	}
	s := &source{given: path, abs: abs, isDir: err == nil && info.IsDir(), files: map[string][]byte{}}
	s.dir = abs
	if !s.isDir {
		s.dir = filepath.Dir(abs)
	}
	s.modRoot = modRoot(s.dir)
	deps, ds := s.modFile()
	if ds != nil {
		return nil, ds
	}
	s.overlay = overlay(s.modRoot, deps[schemaModule])
	if ds := s.readSpecFiles(sources); ds != nil {
		return nil, ds
	}
	return s, nil
}

// readSpecFiles reads the spec's own .cue files (the file, or those of the
// directory) within input.SpecLimit and hands them to cue/load through the
// overlay, so cue/load never reads an unbounded file itself; a file the
// caller holds (sources) is taken as it holds it. Files it cannot read are
// left to cue/load to report.
func (s *source) readSpecFiles(sources map[string][]byte) diag.Diagnostics {
	files := []string{s.abs}
	if s.isDir {
		files, _ = filepath.Glob(filepath.Join(s.abs, "*.cue"))
	}
	var ds diag.Diagnostics
	for _, f := range files {
		b, err := heldOrRead(f, sources)
		switch {
		case errors.Is(err, input.ErrTooLarge):
			name := s.given
			if s.isDir {
				name = filepath.Join(s.given, filepath.Base(f))
			}
			at := diag.Position{Filename: filepath.ToSlash(name), Line: 1, Column: 1}
			ds = append(ds, diag.Errorf(diag.Range{Start: at, End: at}, "size",
				"file too large: more than %s (the limit for spec files)", input.Size(input.SpecLimit)))
		case err == nil:
			s.overlay[f] = load.FromBytes(b)
		}
	}
	return ds
}

// heldOrRead is the text of the spec file f: the caller's, if it holds
// it, else the file's on disk, within input.SpecLimit either way.
func heldOrRead(f string, sources map[string][]byte) ([]byte, error) {
	b, ok := sources[f]
	switch {
	case !ok:
		return input.ReadFile(f, input.SpecLimit)
	case int64(len(b)) > input.SpecLimit:
		return nil, input.ErrTooLarge
	}
	return b, nil
}

// build loads the CUE instance and unifies it with #Spec. It returns the
// instance as written and the unified value.
func (s *source) build() (orig, spec cue.Value, _ diag.Diagnostics) {
	ctx := cuecontext.New()
	v, err := s.instance(ctx)
	if err != nil {
		return cue.Value{}, cue.Value{}, s.sieveImports(s.errDiags(err))
	}
	s.orig = v
	if ds := s.testShape(v); ds != nil {
		return cue.Value{}, cue.Value{}, ds
	}
	u, err := unifySpec(ctx, v)
	if err != nil {
		return cue.Value{}, cue.Value{}, s.errDiags(err).Sort()
	}
	return v, u, nil
}

// testShape reports tests without a controller or workloads in the
// .sieve checker's words, before CUE reports them as incomplete values.
func (s *source) testShape(v cue.Value) diag.Diagnostics {
	var ds diag.Diagnostics
	it, err := v.LookupPath(cue.ParsePath("test")).Fields()
	if err != nil {
		return nil
	}
	for it.Next() {
		t, name := it.Value(), it.Selector().Unquoted()
		r := s.rangeAt(t.Pos(), t.Pos())
		if !t.LookupPath(cue.ParsePath("controller")).Exists() {
			ds = append(ds, diag.Errorf(r, "test", "test %s has no controller (add: controller: controllers.NAME)", name))
		}
		if !t.LookupPath(cue.ParsePath("workloads")).Exists() {
			ds = append(ds, diag.Errorf(r, "test", "test %s has no workload (add: workloads: [workload.NAME])", name))
		}
	}
	return ds
}

// instance loads and builds the spec's CUE instance.
func (s *source) instance(ctx *cue.Context) (cue.Value, error) {
	cfg := &load.Config{Dir: s.dir, ModuleRoot: s.modRoot, Overlay: s.overlay}
	arg := "."
	if !s.isDir {
		arg = "./" + filepath.Base(s.abs)
	}
	insts := load.Instances([]string{arg}, cfg)
	if len(insts) == 0 {
		return cue.Value{}, fmt.Errorf("no CUE instance found")
	}
	s.readFiles(insts[0])
	if err := insts[0].Err; err != nil {
		return cue.Value{}, err
	}
	if err := s.checkDepth(); err != nil {
		return cue.Value{}, err
	}
	v := ctx.BuildInstance(insts[0])
	return v, v.Err()
}

// unifySpec unifies v with #Spec and validates it: the whole spec as far
// as it is written, the tests concretely (declarations may leave workload
// parameters open).
func unifySpec(ctx *cue.Context, v cue.Value) (cue.Value, error) {
	schema := ctx.CompileString(SchemaText(), cue.Filename(schemaFile)).LookupPath(cue.MakePath(cue.Def("Spec")))
	if err := schema.Err(); err != nil {
		return cue.Value{}, err
	}
	u := v.Unify(schema)
	err := u.Validate()
	if t := u.LookupPath(cue.ParsePath("test")); t.Exists() {
		// Both, so a test missing a value and a conflict elsewhere are
		// reported together.
		switch cerr := t.Validate(cue.Concrete(true)); {
		case cerr == nil:
		case err == nil:
			err = cerr
		default:
			err = cueerrors.Append(cueerrors.Promote(err, ""), cueerrors.Promote(cerr, ""))
		}
	}
	if err != nil {
		return cue.Value{}, err
	}
	return u, nil
}

// maxDepth bounds bracket nesting: the CUE evaluator takes seconds on
// thousands of nested lists, and no spec needs more than a few dozen.
const maxDepth = 1000

// checkDepth rejects files nested deeper than maxDepth brackets. Strings
// and comments are skipped roughly; the limit is far from real specs.
func (s *source) checkDepth() error {
	for name, src := range s.files {
		if off := deepAt(src); off >= 0 {
			f := token.NewFile(name, 0, len(src))
			f.SetLinesForContent(src)
			return cueerrors.Newf(f.Pos(off, token.NoRelPos), "nesting deeper than %d brackets", maxDepth)
		}
	}
	return nil
}

// deepAt returns the offset where src nests deeper than maxDepth, or -1.
func deepAt(src []byte) int {
	depth, inStr, comment := 0, false, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case comment:
			comment = c != '\n'
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			comment = true
		case c == '[' || c == '{' || c == '(':
			if depth++; depth > maxDepth {
				return i
			}
		case c == ']' || c == '}' || c == ')':
			depth--
		}
	}
	return -1
}

// readFiles remembers the text of the instance's files so positions can
// count columns in runes.
func (s *source) readFiles(inst *build.Instance) {
	for _, f := range inst.BuildFiles {
		if b, ok := f.Source.([]byte); ok {
			s.files[f.Filename] = b
			continue
		}
		if b, err := input.ReadFile(f.Filename, input.SpecLimit); err == nil {
			s.files[f.Filename] = b
		}
	}
}
