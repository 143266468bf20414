package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/internal/cachedir"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// cacheTest is a test with a command controller (this test binary) and
// one manifest file in dir.
func cacheTest(t *testing.T, dir string) *ir.Test {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.yaml"), []byte("kind: ConfigMap\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return &ir.Test{
		Name:       "t",
		Src:        diag.Range{Start: diag.Position{Line: 3}},
		Controller: &ir.Controller{Name: "c", Command: []string{exe}, Namespaces: []string{"default"}},
		Workloads: []*ir.Workload{{Name: "w", Steps: []*ir.Step{
			{Kind: ir.StepApply, File: "m.yaml", Src: diag.Range{Start: diag.Position{Line: 7}}},
		}}},
		Runs: 2,
	}
}

func key(t *testing.T, o *keyInputs) string {
	t.Helper()
	k, err := o.Cache.cacheKey(context.Background(), o.Test, o.BaseDir, &session.Worker{})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// keyInputs are what a cache key is made from.
type keyInputs struct {
	Test    *ir.Test
	BaseDir string
	Cache   *Cache
}

// TestCacheKey checks what the reference cache key depends on: not source
// positions, masks, invariants, policies, plans or the converge bound;
// the bounds that end settles, the controller, the manifests and stand-in
// programs it reads and the sieve version.
func TestCacheKey(t *testing.T) {
	dir := t.TempDir()
	o := &keyInputs{Test: cacheTest(t, dir), BaseDir: dir, Cache: &Cache{Version: "v1"}}
	base := key(t, o)

	o.Test.Src.Start.Line, o.Test.Workloads[0].Steps[0].Src.Start.Line = 30, 70
	if got := key(t, o); got != base {
		t.Errorf("moving declarations changed the key")
	}
	o.Test.Masks = []*ir.Mask{{Name: "m", Rules: []*ir.MaskRule{{Target: ir.Ref{Kind: "configmap", Namespace: "*", Name: "*"}, Whole: true}}}}
	o.Test.Invariants = []*ir.Invariant{{Name: "i", Expr: "true"}}
	o.Test.Policies = []*ir.Policy{{Name: "p", Patterns: []ir.Pattern{ir.Stale}}}
	o.Test.Plans = []*ir.Plan{{Name: "p1"}}
	converge := ir.Duration(time.Minute)
	o.Test.Converge = &converge
	if got := key(t, o); got != base {
		t.Errorf("masks, invariants, policies, plans or the converge bound changed the key")
	}
	for _, bound := range []**ir.Duration{&o.Test.Quiet, &o.Test.Settle, &o.Test.SettleMax} {
		d := ir.Duration(90 * time.Second)
		*bound = &d
		if got := key(t, o); got == base {
			t.Errorf("a settle bound (%s) kept the key", d)
		}
		*bound = nil
	}
	o.Test.Controller.Args = []string{"--fixed"}
	if got := key(t, o); got == base {
		t.Errorf("new controller arguments kept the key")
	}
	o.Test.Controller.Args = nil
	if err := os.WriteFile(filepath.Join(dir, "m.yaml"), []byte("kind: Secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := key(t, o)
	if changed == base {
		t.Errorf("an edited manifest kept the key")
	}
	o.Cache.Version = "v2"
	if got := key(t, o); got == changed {
		t.Errorf("another sieve version kept the key")
	}
	if err := os.WriteFile(filepath.Join(dir, "fake-admin"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	o.Test.Controller.Exec = []*ir.ExecStandIn{{Pod: "*", Command: []string{"admin"}, Run: []string{"./fake-admin"}}}
	withStandIn := key(t, o)
	if withStandIn == changed {
		t.Errorf("an exec stand-in kept the key")
	}
	if err := os.WriteFile(filepath.Join(dir, "fake-admin"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := key(t, o); got == withStandIn {
		t.Errorf("an edited stand-in program kept the key")
	}
	if err := os.WriteFile(filepath.Join(dir, "fakedb"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	o.Test.Controller.Standins = []*ir.Standin{{Service: "db", Ports: []int{5432}, Command: []string{"./fakedb", "--members=3"}}}
	withService := key(t, o)
	if err := os.WriteFile(filepath.Join(dir, "fakedb"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := key(t, o); got == withService {
		t.Errorf("an edited Service stand-in program kept the key")
	}
}

// TestCacheKeyRunFiles: the files that the controller's and the
// stand-ins' commands run (a script given to an interpreter, a jar, a
// configuration file) are part of the key; a command whose files cannot
// be told (sh -c, an argument naming a directory) is not cached, and the
// error says why.
func TestCacheKeyRunFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := &keyInputs{Test: cacheTest(t, dir), BaseDir: dir, Cache: &Cache{Version: "v1"}}
	o.Test.Controller.Command = []string{"sh", "./ctl.sh"}
	write("ctl.sh", "exec ./operator\n")
	before := key(t, o)
	write("ctl.sh", "exec ./operator --fixed\n")
	if got := key(t, o); got == before {
		t.Errorf("an edited controller script (sh ./ctl.sh) kept the key")
	}

	o.Test.Controller.Standins = []*ir.Standin{{Service: "db", Ports: []int{5432}, Command: []string{"java", "-jar", "db.jar", "--config=db.conf"}}}
	write("db.jar", "jar 1")
	write("db.conf", "members: 3")
	before = key(t, o)
	write("db.conf", "members: 1")
	if got := key(t, o); got == before {
		t.Errorf("an edited configuration file of a stand-in (--config=db.conf) kept the key")
	}
	before = key(t, o)
	write("db.jar", "jar 2")
	if got := key(t, o); got == before {
		t.Errorf("an edited jar of a stand-in (java -jar db.jar) kept the key")
	}

	if err := os.Mkdir(filepath.Join(dir, "conf.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		controller, standin []string
		want                string
	}{
		{controller: []string{"sh", "-c", "exec ./ctl.sh"}, want: `reference cache: not used: cannot tell which files "sh -c exec ./ctl.sh" runs: no argument names a file`},
		{controller: []string{"sh", "./ctl.sh", "conf.d"}, want: `cannot tell which files "sh ./ctl.sh conf.d" runs: conf.d is a directory`},
		{controller: []string{"sh", "./ctl.sh"}, standin: []string{"python3", "-m", "fakedb"}, want: `cannot tell which files "python3 -m fakedb" runs`},
	} {
		o.Test.Controller.Command = tc.controller
		o.Test.Controller.Standins[0].Command = []string{"java", "-jar", "db.jar"}
		if tc.standin != nil {
			o.Test.Controller.Standins[0].Command = tc.standin
		}
		_, err := o.Cache.cacheKey(context.Background(), o.Test, o.BaseDir, &session.Worker{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q, stand-in %q: got %v, want an error with %q", tc.controller, tc.standin, err, tc.want)
		}
	}

	// A controller that sieve builds is no interpreter, whatever its name.
	o.Test.Controller.Standins = nil
	o.Test.Controller.Command, o.Test.Controller.Build, o.Test.Controller.Args = nil, "./cmd/node", []string{"--fixed"}
	if _, err := runFiles(context.Background(), o.Test, dir, ""); err != nil {
		t.Errorf("build ./cmd/node: %v", err)
	}
	o.Test.Controller.Args = []string{"--data", "conf.d"}
	want := `cannot tell which files "(./cmd/node) --data conf.d" runs: conf.d is a directory`
	if _, err := runFiles(context.Background(), o.Test, dir, ""); err == nil || err.Error() != want {
		t.Errorf("build ./cmd/node --data conf.d: got %v, want %q", err, want)
	}
}

// TestCacheStoreReuse stores two reference runs, which trims an entry
// not used for long, and reuses them in another results directory.
func TestCacheStoreReuse(t *testing.T) {
	src := results.Layout{Root: t.TempDir()}
	for i := 1; i <= 2; i++ {
		if err := os.MkdirAll(src.ReferenceDir(i), 0o755); err != nil {
			t.Fatal(err)
		}
		w, err := trace.Create(filepath.Join(src.ReferenceDir(i), results.TraceFile), trace.Header{Test: "t", Run: i})
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	if err := results.WriteLearned(src, nil, []string{"none"}); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	unused := filepath.Join(root, "unused")
	if err := os.Mkdir(unused, 0o755); err != nil {
		t.Fatal(err)
	}
	long := time.Now().Add(-cachedir.MaxAge - time.Hour)
	if err := os.Chtimes(unused, long, long); err != nil {
		t.Fatal(err)
	}
	entry := filepath.Join(root, "k")
	var progress strings.Builder
	storeRefs(Env{Progress: &progress}, entry, src, &ir.Test{Runs: 2})
	if progress.Len() > 0 {
		t.Fatalf("store: %s", progress.String())
	}
	if _, err := os.Stat(unused); !os.IsNotExist(err) {
		t.Errorf("an entry unused for %s was kept (%v)", cachedir.MaxAge, err)
	}
	if _, err := os.Stat(filepath.Join(entry, results.LearnedFile)); err != nil {
		t.Errorf("learned masks not stored: %v", err)
	}
	dst := results.Layout{Root: t.TempDir()}
	refs, err := reuse(entry, dst, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 2 || refs[1].Header.Run != 2 {
		t.Errorf("reused %d runs (second: %+v), want runs 1 and 2", len(refs), refs)
	}
	if n := dst.References(); n != 2 {
		t.Errorf("References() = %d, want 2", n)
	}
}
