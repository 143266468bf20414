package pipeline

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sievetool/sieve/interp/buildinfo"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/internal/cachedir"
	"github.com/sievetool/sieve/interp/internal/nofollow"
	"github.com/sievetool/sieve/interp/run/controller"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/ir"
)

// Cache keeps reference runs and their learned masks between invocations,
// so that a rerun of an unchanged test (in CI, say) skips recording them.
// An entry is keyed by a hash of what changes a recording: the test's
// name, controller, workloads, number of runs and the bounds that end its
// settles (quiet, settle, settle_max) (IR without source positions), the
// files they read (CRDs, manifests), the controller binary's content, the
// files its command and the stand-ins' commands run (runFiles: a script,
// a jar, a configuration file), the backend kind and the sieve build. A
// test whose commands run files that cannot be told (sh -c "...", python
// -m MODULE) is not cached. Masks, invariants, policies, plans and
// the converge bound are not in the key: they only judge or generate from
// the recorded runs, or act in plan runs only, and the learned masks are
// learned again from the cached runs each time. Entries not used for
// cachedir.MaxAge (5 days), and the least recently used past
// cachedir.MaxEntries, are removed. The zero value is usable.
type Cache struct {
	// Dir is the cache root (default: the user cache directory's
	// sieve/references).
	Dir string
	// Version identifies the sieve build (default: the module version and
	// VCS revision from the build info, plus this executable's hash when
	// the tree was modified or no revision is known).
	Version string
}

// dir is the cache root.
func (c *Cache) dir() string { return cmp.Or(c.Dir, cachedir.Root("references")) }

// version identifies the sieve build.
func (c *Cache) version() (string, error) {
	if c.Version != "" {
		return c.Version, nil
	}
	v, exact := buildVersion()
	if exact {
		return v, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	sum, err := fileHash(exe)
	if err != nil {
		return "", err
	}
	return v + " " + sum, nil
}

// buildVersion is the module version and VCS revision; exact is false when
// they do not pin the build (a modified tree, a development build).
func buildVersion() (v string, exact bool) {
	bi := buildinfo.Read()
	v, exact = bi.Version, bi.Version != "(devel)" && bi.Version != "unknown"
	switch {
	case bi.Modified:
		return strings.TrimSpace(v+" "+bi.Revision) + " modified", false
	case bi.Revision != "":
		return v + " " + bi.Revision, true
	}
	return v, exact
}

// cacheKey hashes what the reference runs of test t (its paths relative
// to baseDir) depend on. w is the worker that records them (its backend
// kind and binary cache).
func (c *Cache) cacheKey(ctx context.Context, t *ir.Test, baseDir string, w *session.Worker) (string, error) {
	version, err := c.version()
	if err != nil {
		return "", fmt.Errorf("reference cache: sieve version: %w", err)
	}
	spec, err := testJSON(t)
	if err != nil {
		return "", err
	}
	bin, err := controllerHash(ctx, t.Controller, baseDir, w.CacheDir)
	if err != nil {
		return "", fmt.Errorf("reference cache: controller: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "sieve %s\nbackend %T\ncontroller %s\nruns %d\n", version, w.Backend, bin, max(t.Runs, 1))
	if l, ok := w.Backend.(interface{ Kubernetes() string }); ok && l.Kubernetes() != "" {
		fmt.Fprintf(h, "kubernetes %s\n", l.Kubernetes()) // an older line records differently
	}
	run, err := runFiles(ctx, t, baseDir, w.CacheDir)
	if err != nil {
		return "", fmt.Errorf("reference cache: not used: %w", err)
	}
	h.Write(spec)
	for _, l := range run {
		fmt.Fprintln(h, l)
	}
	for _, f := range inputFiles(t) {
		sum, err := fileHash(ir.OSPath(baseDir, f))
		if err != nil {
			sum = "missing"
		}
		fmt.Fprintf(h, "file %s %s\n", f, sum)
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

// testJSON is the part of the test's IR a recording depends on (the quiet
// bound, the settle window and the bound on a settle end its settles), as
// JSON without source positions, so that editing comments, moving
// declarations or editing masks, invariants, policies, plans or the
// converge bound keeps the cache.
func testJSON(t *ir.Test) ([]byte, error) {
	recorded := &ir.Test{Name: t.Name, Controller: t.Controller, Workloads: t.Workloads, Runs: t.Runs,
		Quiet: t.Quiet, Settle: t.Settle, SettleMax: t.SettleMax}
	b, err := withoutSrc(recorded)
	if err != nil {
		return nil, fmt.Errorf("reference cache: %w", err)
	}
	return b, nil
}

// withoutSrc is v as JSON without the source positions of its IR nodes.
func withoutSrc(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	dropSrc(m)
	return json.Marshal(m)
}

// WorkloadHash identifies what a reference run of test t (its paths
// relative to baseDir) records: its controller and workloads as the spec
// gives them (no source positions), and the content of the files they
// read (CRDs, applied manifests). Tests with the same hash record the
// same runs, so a trace of one serves the other (sieve plan --trace); the
// trace header carries it (trace.Header.Workload).
func WorkloadHash(t *ir.Test, baseDir string) (string, error) {
	b, err := withoutSrc(&ir.Test{Controller: t.Controller, Workloads: t.Workloads})
	if err != nil {
		return "", fmt.Errorf("workload hash: %w", err)
	}
	h := sha256.New()
	h.Write(b)
	for _, f := range inputFiles(t) {
		sum, err := fileHash(ir.OSPath(baseDir, f))
		if err != nil {
			sum = "missing"
		}
		fmt.Fprintf(h, "\nfile %s %s", f, sum)
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

// dropSrc removes every "src" member of v, recursively.
func dropSrc(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "src")
		for _, c := range v {
			dropSrc(c)
		}
	case []any:
		for _, c := range v {
			dropSrc(c)
		}
	}
}

// inputFiles are the files the test reads: CRDs and applied manifests
// (runFiles has those that its commands run).
func inputFiles(t *ir.Test) []string {
	files := append([]string(nil), t.Controller.CRDs...)
	for _, w := range t.Workloads {
		for _, s := range w.Steps {
			if s.File != "" {
				files = append(files, s.File)
			}
		}
	}
	return files
}

// controllerHash identifies the controller binary: the built binary's
// content for a Go package (built once and cached by interp/run/controller),
// the executable's content for a command, this executable's for a
// built-in controller.
func controllerHash(ctx context.Context, c *ir.Controller, baseDir, cacheDir string) (string, error) {
	var bin string
	var err error
	switch {
	case c.Build != "":
		bin, err = controller.Build(ctx, controller.WorkDir(c, baseDir), c.Build, controller.CacheDir(cacheDir))
	case len(c.Command) > 0:
		bin, err = controller.LookPath(c.Command[0], controller.WorkDir(c, baseDir))
	default:
		bin, err = os.Executable()
	}
	if err != nil {
		return "", err
	}
	return fileHash(bin)
}

func fileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// cached looks up test t's reference runs in cache c (nil: no cache). It
// returns the entry's directory (laid out like a results directory) and
// whether it holds the runs; a key that cannot be computed is told and
// means a miss.
func cached(ctx context.Context, env Env, t *ir.Test, c *Cache) (key, dir string, hit bool) {
	if c == nil {
		return "", "", false
	}
	key, err := c.cacheKey(ctx, t, env.BaseDir, env.Workers[0])
	if err != nil {
		env.progressf("%v (recording the reference runs)", err)
		return "", "", false
	}
	dir = filepath.Join(c.dir(), key)
	n := max(t.Runs, 1)
	if _, err = os.Stat(results.Layout{Root: dir}.ReferenceDir(n)); err != nil {
		return key, dir, false
	}
	cachedir.Use(dir)
	return key, dir, true
}

// storeRefs copies the recorded reference runs of test t and the learned
// masks of layout into the cache entry dir, atomically (a temporary
// directory renamed into place), and trims the cache (cachedir.Trim). Failing to store is told, not an error.
func storeRefs(env Env, dir string, layout results.Layout, t *ir.Test) {
	err := storeEntry(dir, layout, max(t.Runs, 1))
	if err == nil {
		err = cachedir.Trim(filepath.Dir(dir))
	}
	if err != nil {
		env.progressf("reference cache: %v", err)
	}
}

func storeEntry(dir string, layout results.Layout, n int) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	dst := results.Layout{Root: tmp}
	for i := 1; i <= n; i++ {
		if err := copyDir(layout.ReferenceDir(i), dst.ReferenceDir(i)); err != nil {
			return err
		}
	}
	if err := copyFile(layout.Learned(), dst.Learned()); err != nil && !os.IsNotExist(err) {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) && !isNotEmpty(err) {
		return err
	}
	return nil
}

// isNotEmpty is a rename onto an entry another process stored meanwhile.
func isNotEmpty(err error) bool {
	return strings.Contains(err.Error(), "directory not empty")
}

// reuse copies n reference runs from src (a results directory or a cache
// entry) into layout and reads their traces.
func reuse(src string, layout results.Layout, n int) ([]*trace.Trace, error) {
	from := results.Layout{Root: src}
	var refs []*trace.Trace
	for i := 1; i <= n; i++ {
		if filepath.Clean(src) != filepath.Clean(layout.Root) {
			if err := copyDir(from.ReferenceDir(i), layout.ReferenceDir(i)); err != nil {
				return nil, fmt.Errorf("reference run %d: %w", i, err)
			}
		}
		t, err := trace.Read(layout.ReferenceTrace(i))
		if err != nil {
			return nil, fmt.Errorf("reference run %d: %w", i, err)
		}
		refs = append(refs, t)
	}
	return refs, nil
}

// copyDir copies the regular files of src into dst (not recursively: run
// directories are flat but for the in-cluster service-account files, which
// are not needed again). Not os.CopyFS: its copies are readable by all
// and it follows a link in dst, where a results directory's files are
// their owner's only and a link there is refused (nofollow).
func copyDir(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, nofollow.DirMode); err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if err := copyFile(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := nofollow.Create(dst)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
