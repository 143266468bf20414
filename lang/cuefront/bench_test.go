package cuefront_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/load"
)

// BenchmarkCompileCUE compiles a generated CUE spec equivalent to a
// 1,000-line .sieve spec (the .sieve twin is compiled by
// BenchmarkCompileSieve for comparison); both must give the same IR.
func BenchmarkCompileCUE(b *testing.B) { benchCompile(b, ".cue") }

// BenchmarkCompileSieve compiles the .sieve twin of BenchmarkCompileCUE's
// spec.
func BenchmarkCompileSieve(b *testing.B) { benchCompile(b, ".sieve") }

func benchCompile(b *testing.B, ext string) {
	dir := b.TempDir()
	sieve, cue := genBenchSpec(1000)
	for name, src := range map[string]string{"spec.sieve": sieve, "spec.cue": cue, "app.yaml": testApp, "crd.yaml": testCRD} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	file := filepath.Join(dir, "spec"+ext)
	for b.Loop() {
		if _, ds := load.Load(file, load.Options{}); ds.HasErrors() {
			b.Fatal(ds)
		}
	}
	b.ReportMetric(float64(strings.Count(sieve, "\n")), "sieve-lines")
	b.ReportMetric(float64(strings.Count(cue, "\n")), "cue-lines")
}

// genBenchSpec writes blocks of a controller, a parameterised workload, a
// mask, an invariant, a policy and a test until the .sieve form has at
// least lines lines, and returns the .sieve and CUE forms.
func genBenchSpec(lines int) (sieve, cue string) {
	var s, c strings.Builder
	s.WriteString("import \"std/masks\"\n\n")
	c.WriteString("package spec\n\nimport \"sieve.dev/std\"\n\n")
	for i := 0; strings.Count(s.String(), "\n") < lines; i++ {
		fmt.Fprintf(&s, `controller c%[1]d {
  command ["op", "--id=%[1]d"]
  args    ["--leader-elect=false"]
  env     { LEVEL: "debug" }
  crds    ["crd.yaml"]
  ready   { log: "started", within: 30s }
}

workload w%[1]d(name = "app%[1]d", replicas = 3) {
  apply  "app.yaml" set { metadata.name: name, spec.replicas: replicas }
  wait   deployment/default/${name} ready within 60s
  patch  deployment/default/${name} merge { spec: { replicas: 1 } }
  wait   deployment/default/${name} where spec.replicas == 1 within 30s
  delete deployment/default/${name}
  wait   pod/default/${name}-* gone within 60s
  settle 5s
}

mask m%[1]d {
  key uid
  pod/*/* path spec.nodeName
  lease/*/* whole
}

invariant i%[1]d always `+"`objects(\"pod\", \"default\").size() <= %[1]d`"+`

policy p%[1]d {
  patterns [intermediate, stale]
  exclude  [event/*/*]
}

test t%[1]d {
  controller c%[1]d
  workloads  [w%[1]d(replicas = 2)]
  policies   [p%[1]d]
  masks      [masks.default, m%[1]d]
  invariants [i%[1]d]
}

`, i)
		fmt.Fprintf(&c, `controllers: c%[1]d: {
	command: ["op", "--id=%[1]d"]
	args: ["--leader-elect=false"]
	env: LEVEL: "debug"
	crds: ["crd.yaml"]
	ready: {log: "started", within: "30s"}
}

workload: w%[1]d: {
	params: {name: *"app%[1]d" | string, replicas: *3 | int}
	let key = "deployment/default/\(params.name)"
	steps: [
		{apply: "app.yaml", set: {"metadata.name": params.name, "spec.replicas": params.replicas}},
		{wait: key, ready: true, within: "60s"},
		{patch: key, merge: spec: replicas: 1},
		{wait: key, where: {path: "spec.replicas", equals: 1}, within: "30s"},
		{delete: key},
		{wait: "pod/default/\(params.name)-*", gone: true, within: "60s"},
		{settle: "5s"},
	]
}

mask: m%[1]d: rules: [{key: "uid"}, {target: "pod/*/*", path: "spec.nodeName"}, {target: "lease/*/*", whole: true}]

invariant: i%[1]d: expr: #"objects("pod", "default").size() <= %[1]d"#

policy: p%[1]d: {patterns: ["intermediate", "stale"], exclude: ["event/*/*"]}

test: t%[1]d: {
	controller: controllers.c%[1]d
	workloads: [workload.w%[1]d & {params: replicas: 2}]
	policies: [policy.p%[1]d]
	masks: [std.masks.default, mask.m%[1]d]
	invariants: [invariant.i%[1]d]
}

`, i)
	}
	return s.String(), c.String()
}

// TestBenchSpecParity makes sure the benchmark compiles equivalent specs.
func TestBenchSpecParity(t *testing.T) {
	dir := t.TempDir()
	sieve, cue := genBenchSpec(100)
	for name, src := range map[string]string{"spec.sieve": sieve, "spec.cue": cue, "app.yaml": testApp, "crd.yaml": testCRD} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := compileNoSrc(t, filepath.Join(dir, "spec.sieve"), "")
	got := compileNoSrc(t, filepath.Join(dir, "spec.cue"), "")
	if string(got) != string(want) {
		t.Errorf("benchmark specs differ:\n%s", lineDiff(want, got))
	}
}

// testCRD and testApp are a CRD file and a manifest that the checks of
// both front ends accept.
const (
	testCRD = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: apps.example.com}\nspec: {names: {kind: App}}\n"
	testApp = "apiVersion: example.com/v1\nkind: App\nmetadata: {name: x}\n"
)
