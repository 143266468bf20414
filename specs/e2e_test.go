package specs

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/analysis/leader"
	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/standin"
	"github.com/sievetool/sieve/lang/ir"
)

// The specs the end-to-end tests run, each narrowed to the one plan that
// shows its bug, so that a buggy/fixed pair stays short. ensemble gets a stale view of its
// scale-down after the scale back up. ring crashes right after it records a
// decommission. routetable has its updates of the routing table refused
// with a conflict, one per plan. ensemble_appfault has its removal of a
// member answered 503, or reset, in the members API's place;
// ensemble_stale its reads of the membership answered as the read before.
// members has its call that removes a member from the store answered 503,
// and reset, one per plan.
const (
	ensembleE2ESpec   = "specs/testdata/ensemble_e2e.sieve"
	ringE2ESpec       = "specs/testdata/ring_e2e.sieve"
	apierrorE2ESpec   = "specs/testdata/datastore_apierror_e2e.sieve"
	routetableE2ESpec = "specs/testdata/routetable_e2e.sieve"
	readsE2ESpec      = "specs/testdata/routetable_reads_e2e.sieve"
	membersE2ESpec    = "specs/testdata/members_e2e.sieve"
	appfaultE2ESpec   = "specs/testdata/ensemble_appfault_e2e.sieve"
	staleE2ESpec      = "specs/testdata/ensemble_stale_e2e.sieve"
	settingsSpec      = "specs/settings/settings.sieve"
	exploreE2ESpec    = "specs/testdata/datastore_explore_e2e.sieve"
)

// finding is the part of a plan's result.json finding these tests look at.
type finding struct {
	Check string `json:"check"`
	Key   string `json:"key"`
	Path  string `json:"path"`
}

// liveClaimDeleted reports whether f is the ensemble bug: the PVC of
// member ens-1, live again after the scale back up, deleted once more
// than in the reference.
func liveClaimDeleted(f finding) bool {
	return f.Check == "object-count" && f.Key == "persistentvolumeclaim/default/data-ens-1"
}

// deadNode reports whether f is the ring bug: the ring keeps a node that
// went away without leaving it, where the reference's ring has none.
func deadNode(f finding) bool {
	return f.Check == "field" && f.Key == "ring.ring.sieve.dev/default/ring" && f.Path == "status.nodes"
}

// unpublished reports whether f is the routetable bug: a Route's entry in
// the routing table is missing or out of date where the reference's is
// there and current.
func unpublished(f finding) bool {
	return f.Check == "field" && f.Key == "configmap/default/routes" && strings.HasPrefix(f.Path, "data.")
}

// memberKept reports whether f is the members bug: the store still lists
// kv-2, whose pod and PVC are gone, where the reference's lists kv-0 and
// kv-1 only.
func memberKept(f finding) bool {
	return f.Check == "field" && f.Key == "store.members.sieve.dev/default/kv" && strings.HasPrefix(f.Path, "status.members")
}

// e2eCase is one `sieve run` of an end-to-end test.
type e2eCase struct {
	test string
	exit int
	want func(finding) bool // a finding the run must report; nil: none may be reported
}

// TestE2EEnsemble runs `sieve run` on the embedded backend on the buggy
// and fixed tests of ensemble: the buggy one must exit 1 with the bug's
// finding, the fixed one must exit 0 with no finding at all. Its
// controller manages its application through the members API at the
// client Service's cluster DNS name, answered by the spec's stand-in. Each
// run must also show that the controller reached the stand-in by that
// name and used its answer. (volresize_e2e's pair runs in sievetest's
// TestBuggy and TestFixed, through the library, not twice.)
func TestE2EEnsemble(t *testing.T) {
	runE2E(t, ensembleE2ESpec, []e2eCase{{"buggy", 1, liveClaimDeleted}, {"fixed", 0, nil}}, standinReached)
}

// TestE2ERing does the same for ring, whose controller elects its leader
// with a ConfigMap and a Lease. It calls an agent in each of its pods by
// the pod's IP, answered by the spec's pod stand-in. Each run must also
// show that the calls reached the agents of the pods they were meant for,
// and that the crash let go the killed leader's locks.
func TestE2ERing(t *testing.T) {
	runE2E(t, ringE2ESpec, []e2eCase{{"buggy", 1, deadNode}, {"fixed", 0, nil}}, func(t *testing.T, out string) {
		agentsReached(t, out)
		locksLetGo(t, out)
	})
}

// TestE2EAPIError runs the fixed datastore test under the apierror
// pattern (a server error and an applied timeout for its StatefulSet's
// create, a conflict for its Datastore's updates, its StatefulSet watch
// ended with 410 after each creation): the controller handles each, so
// the run must exit 0 with no finding, and each plan must have had its
// write answered with its error or its watch ended (injected, not
// not-injected).
func TestE2EAPIError(t *testing.T) {
	runE2E(t, apierrorE2ESpec, []e2eCase{{"fixed", 0, nil}}, errorsInjected(7, results.Passed))
}

// TestE2EAppFault runs the fixed ensemble test under the appfault
// pattern, twice from one reference run. First ensemble_appfault_e2e: its
// call that removes ens-1 from the ensemble answered 503 in the members
// API's place, its connection reset, held unanswered until the
// controller's client timeout, or its answer cut short. Then, in subtest
// stale, ensemble_stale_e2e, from the first run's reference run (the two
// specs' fixed tests record the same run): each GET /members whose answer
// changed in the reference (after the joins, the removal, the rejoin) gets
// the answer the GET before it got, in the members API's place; and the
// spec's own plan gives the first GET after ens-1's pod is gone the
// reference's answer from before the removal (checkStale). The controller
// returns the error and its reconcile is retried, or reads the membership
// again at its next reconcile, so each run must exit 0 with no finding,
// and each plan must have answered its call (an app-fault fault entry in
// its trace, injected, not not-injected): four plans, then four.
func TestE2EAppFault(t *testing.T) {
	parallelE2E(t)
	fixed := e2eCase{test: "fixed", exit: 0}
	out, _ := runCase(t, appfaultE2ESpec, fixed)
	faultsInjected(4, ir.AppFault, ir.ActAppFault, results.Passed)(t, out)
	t.Run("stale", func(t *testing.T) {
		stale, log := runCase(t, staleE2ESpec, fixed, "--references", out)
		if !strings.Contains(log, "reusing 1 reference run(s) from") {
			t.Errorf("the stale run did not reuse the first run's reference run:\n%s", log)
		}
		checkStale(t, stale)
	})
}

// checkStale holds that the stale run in out made at least four plans,
// each given its answer, passed: the generated ones app-fault plans
// injected, and the spec's one plan its stale answer, the one its plan
// file carries, ens-1 still a member.
func checkStale(t *testing.T, out string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(out, "plans", "*", "result.json"))
	if len(files) < 4 {
		t.Fatalf("%d plan results, want at least 4", len(files))
	}
	user := 0
	for _, f := range files {
		if !strings.HasPrefix(filepath.Base(filepath.Dir(f)), string(planfile.User)+"-") {
			checkInjected(t, f, ir.AppFault, ir.ActAppFault, results.Passed)
			continue
		}
		user++
		checkInjected(t, f, planfile.User, ir.ActAppFault, results.Passed)
		staleAnswered(t, filepath.Dir(f), `"members":["ens-0","ens-1"]`)
	}
	if user != 1 {
		t.Errorf("%d results of the spec's plan, want 1", user)
	}
}

// staleAnswered holds that the plan in planDir carries a stale answer
// whose body holds want, taken from the reference (its why names the
// call and the earlier one), and that its run's trace says the call was
// given that answer.
func staleAnswered(t *testing.T, planDir, want string) {
	t.Helper()
	run, err := results.ReadPlanRun(planDir)
	if err != nil {
		t.Fatal(err)
	}
	a := run.Plan.Actions[0]
	if a.Answer == nil || !strings.Contains(a.Answer.Body, want) || len(run.Plan.Why) != 2 {
		t.Fatalf("%s: answer %+v (%s), why %+v; want a body with %s, and the call and the earlier one", run.Plan.Name, a.Answer, a.NoAnswer, run.Plan.Why, want)
	}
	tr, err := os.ReadFile(filepath.Join(planDir, results.TraceFile))
	given := "its answer to an earlier occurrence in the reference, " + a.Answer.String()
	if err != nil || !strings.Contains(string(tr), given) {
		t.Errorf("%s: the trace does not say the call got %q (%v)", run.Plan.Name, given, err)
	}
}

// TestE2ERouteTable runs the routetable spec narrowed to conflicts on its
// controller's updates of the routing table: the buggy controller takes a
// conflict for done and never publishes that update's Route, so the run
// must exit 1 with the table's missing or stale entry, and every plan
// must have failed with its update refused; the fixed one retries, and
// its run must exit 0, every plan injected and passed.
func TestE2ERouteTable(t *testing.T) {
	runE2E(t, routetableE2ESpec, []e2eCase{{"buggy", 1, unpublished}, {"fixed", 0, nil}}, func(t *testing.T, out string) {
		status := results.Passed
		if path.Base(t.Name()) == "buggy" {
			status = results.Failed
		}
		errorsInjected(3, status)(t, out)
	})
}

// TestE2EAPIReads runs the fixed routetable test under apierror's reads:
// each of its first three gets of the routing table (through the API
// reader, not the cache) answered once with a 500 or a 504 in the API
// server's place. The controller returns the error and its reconcile is
// retried, so the run must exit 0 with no finding, each plan injected (an
// error fault entry in its trace) and passed.
func TestE2EAPIReads(t *testing.T) {
	runE2E(t, readsE2ESpec, []e2eCase{{"fixed", 0, nil}}, errorsInjected(6, results.Passed))
}

// TestE2EMembers runs the members spec narrowed to wrong answers to its
// controller's call that removes kv-2 from the store: the buggy controller
// takes the failed call for done and deletes kv-2's pod and PVC with kv-2
// still a member, so the run must exit 1 with kv-2 in the Store's
// status.members, every plan failed; the fixed one calls again, and its
// run must exit 0, every plan passed. In both, every plan's call must have
// been answered with its fault.
func TestE2EMembers(t *testing.T) {
	runE2E(t, membersE2ESpec, []e2eCase{{"buggy", 1, memberKept}, {"fixed", 0, nil}}, func(t *testing.T, out string) {
		status := results.Passed
		if path.Base(t.Name()) == "buggy" {
			status = results.Failed
		}
		faultsInjected(2, ir.AppFault, ir.ActAppFault, status)(t, out)
	})
}

// TestE2ESettings runs the settings example's explored tests (the
// operations explored from the WebApp CRD and its seed, no fault): the
// buggy controller never brings its configuration file up to date, so its
// run must exit 1 with a consistency finding on spec.logLevel, and every
// finding must be about the log level (the differential one: the file
// where the final state applied at once has the last level); the fixed
// controller carries every change into an object it owns, and its run
// must exit 0 with no finding. In both, summary.json counts the seven
// operations, the log levels merged.
func TestE2ESettings(t *testing.T) {
	runE2E(t, settingsSpec, []e2eCase{{test: "buggy", exit: 1, want: logLevelIgnored}, {test: "fixed", exit: 0}},
		func(t *testing.T, out string) {
			fs, _ := findings(t, out)
			for _, f := range fs {
				if !logLevelIgnored(f) && (f.Check != "differential" || f.Key != "configmap/default/web-config") {
					t.Errorf("finding %+v, want only the log level's", f)
				}
			}
			// The controller reacts to the three log levels alike (buggy:
			// not at all; fixed: it rewrites its config map), so at least
			// the last two merge into the first.
			c := exploredCounts(t, out)
			if c.Generated != 7 || c.Refused != 0 || c.Run != 7 || c.Merged < 2 {
				t.Errorf("explored counts %s, want 7 generated, 0 refused, 7 run, at least 2 merged", c)
			}
		})
}

// exploredCounts reads the explored operations' counts from the
// summary.json of a run in out.
func exploredCounts(t *testing.T, out string) *results.ExploredCounts {
	t.Helper()
	s, err := results.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 1 || s.Runs[0].Explored == nil {
		t.Fatalf("summary.json has no explored counts: %+v", s.Runs)
	}
	return s.Runs[0].Explored
}

// logLevelIgnored reports whether f is the settings bug as the explored
// run's consistency oracle sees it: a change of spec.logLevel that left no
// trace.
func logLevelIgnored(f finding) bool {
	return f.Check == "consistency" && f.Key == "webapp.settings.sieve.dev/default/web" && f.Path == "spec.logLevel"
}

// TestE2EExplore runs the datastore controller under an explored
// workload (three operations, one of them refused by a validation rule
// of the CRD): the run must go on past the refused patch and exit 1 with
// the consistency finding of spec.replicas 4 (the controller never
// updates its StatefulSet) and the differential finding of the
// StatefulSet's replicas (4 when the final state is applied at once), and
// that of the state after operation 1 (spec.replicas 1, not the final
// value) applied at once, its result described in its explored.json.
// summary.json counts three operations, one refused, none merged.
func TestE2EExplore(t *testing.T) {
	leftNoTrace := func(f finding) bool {
		return f.Check == "consistency" && f.Key == "datastore.datastore.sieve.dev/default/ds" && f.Path == "spec.replicas"
	}
	runE2E(t, exploreE2ESpec, []e2eCase{{"explored", 1, leftNoTrace}}, func(t *testing.T, out string) {
		fs, _ := findings(t, out)
		if !anyOf(fs, func(f finding) bool {
			return f.Check == "differential" && f.Key == "statefulset/default/ds" && f.Path == "spec.replicas"
		}) {
			t.Errorf("no differential finding of statefulset/default/ds spec.replicas among %+v", fs)
		}
		tr, err := trace.Read(results.Layout{Root: out}.ReferenceTrace(1))
		if err != nil {
			t.Fatal(err)
		}
		refused := 0
		for _, e := range tr.Entries {
			if _, ok := e.Refusal(); ok && e.Error == "" {
				refused++
			}
		}
		if refused != 1 {
			t.Errorf("%d patch steps recorded as refused in the reference run, want 1 (spec.storage: storage is immutable)", refused)
		}
		checkDirectState(t, results.Layout{Root: out})
		// spec.replicas 1 turns the Ready condition false, 4 changes
		// nothing: two reactions of their own, none merged.
		if c := exploredCounts(t, out); *c != (results.ExploredCounts{Generated: 3, Refused: 1, Run: 2}) {
			t.Errorf("explored counts %s, want 3 generated, 1 refused, 2 run, 0 merged", c)
		}
	})
}

// checkDirectState holds the differential run of the state after
// operation 1 of TestE2EExplore: explored-direct-1, failed with a
// differential finding of the StatefulSet's replicas that names the
// operation, what it applied in its explored.json.
func checkDirectState(t *testing.T, out results.Layout) {
	t.Helper()
	var r results.Result
	b, err := os.ReadFile(filepath.Join(out.PlanDir("explored-direct-1"), results.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(r.Findings, func(f *oracle.Finding) bool {
		return f.Check == oracle.CheckDifferential && f.Key == "statefulset/default/ds" && f.Path == "spec.replicas" &&
			strings.Contains(f.Message, "the state after operation 1 (spec.replicas bound 1)")
	}) {
		t.Errorf("explored-direct-1: no differential finding of statefulset/default/ds spec.replicas naming operation 1 among %+v", r.Findings)
	}
	desc, err := results.ReadExplored(out, "explored-direct-1")
	if err != nil {
		t.Fatal(err)
	}
	if desc.After != 1 || len(desc.Operations) != 1 || len(desc.Applied) != 1 {
		t.Errorf("explored-direct-1's explored.json: %+v; want operation 1 and the state after it applied", desc)
	}
}

// errorsInjected returns a check that a run in out ran at least n
// plans, each of the apierror pattern, injected (its write answered with
// its error or its watch ended, an error fault entry in its trace) and
// ending with status.
func errorsInjected(n int, status results.Status) func(t *testing.T, out string) {
	return faultsInjected(n, ir.APIError, ir.ActError, status)
}

// faultsInjected returns a check that a run in out ran at least n plans,
// each of pattern, injected (a fault entry of action in its trace) and
// ending with status.
func faultsInjected(n int, pattern ir.Pattern, action ir.ActionKind, status results.Status) func(t *testing.T, out string) {
	return func(t *testing.T, out string) {
		t.Helper()
		files, _ := filepath.Glob(filepath.Join(out, "plans", "*", "result.json"))
		if len(files) < n {
			t.Fatalf("%d plan results, want at least %d", len(files), n)
		}
		for _, f := range files {
			checkInjected(t, f, pattern, action, status)
		}
	}
}

// checkInjected holds that the plan whose result.json is at f is a plan
// of pattern that ended with status and whose trace has a fault entry of
// action (the write or call it answered).
func checkInjected(t *testing.T, f string, pattern ir.Pattern, action ir.ActionKind, status results.Status) {
	t.Helper()
	var r struct {
		Pattern string `json:"pattern"`
		Status  string `json:"status"`
	}
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", f, err)
	}
	if r.Pattern != string(pattern) || r.Status != string(status) {
		plan, _ := os.ReadFile(filepath.Join(filepath.Dir(f), "plan.json"))
		t.Errorf("%s: pattern %s, status %s; want %s, %s\n%s", filepath.Base(filepath.Dir(f)), r.Pattern, r.Status, pattern, status, plan)
	}
	tr, err := os.ReadFile(filepath.Join(filepath.Dir(f), "trace.jsonl"))
	if err != nil || !strings.Contains(string(tr), `"what":"`+string(action)+`"`) {
		t.Errorf("%s: no %s fault entry in the trace (%v)", filepath.Base(filepath.Dir(f)), action, err)
	}
}

// runE2E runs the cases of spec side by side, and beside the other
// end-to-end tests; check, if not nil, looks at each run's results
// directory as well.
func runE2E(t *testing.T, spec string, cases []e2eCase, check func(t *testing.T, out string)) {
	parallelE2E(t)
	for _, c := range cases {
		t.Run(c.test, func(t *testing.T) {
			t.Parallel() // each run has its own control plane; most of a run is waiting
			out, _ := runCase(t, spec, c)
			if check != nil {
				check(t, out)
			}
		})
	}
}

// parallelE2E skips an end-to-end test in -short mode, and otherwise
// lets it run beside the others.
func parallelE2E(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs sieve end to end on an embedded control plane (about a minute per test); skipped in -short mode")
	}
	// The tests and their runs go side by side, -parallel (GOMAXPROCS) at
	// once; the binary is the one every package's end-to-end tests share.
	t.Parallel()
}

// runCase runs test c.test of spec with more flags, into a results
// directory of its own, and checks its exit status and findings. It
// returns the results directory and the run's output.
func runCase(t *testing.T, spec string, c e2eCase, more ...string) (out, log string) {
	t.Helper()
	sieve := embeddedtest.Binary(t)
	out = t.TempDir()
	keepFailed(t, out)
	args := append([]string{"run", spec, "--test", c.test, "--parallel", "1", "--no-cache", "--no-color", "-o", out}, more...)
	cmd := exec.Command(sieve, args...)
	cmd.Dir = ".."
	b, err := cmd.CombinedOutput()
	log = string(b)
	code := exitCode(err)
	if code == 3 && strings.Contains(log, "embedded cluster:") {
		t.Skipf("the embedded control plane cannot start here:\n%s", log)
	}
	if code != c.exit {
		t.Fatalf("sieve run exited %d, want %d (%v)\n%s", code, c.exit, err, log)
	}
	fs, reruns := findings(t, out)
	if c.want == nil && len(fs) > 0 {
		t.Errorf("fixed run reported %d findings, want none: %+v\n%s", len(fs), fs, log)
	}
	if c.want != nil && !anyOf(fs, c.want) {
		t.Errorf("no finding of the bug's shape among %+v\n%s", fs, log)
	}
	if c.want != nil && planFailed(t, out) && !strings.Contains(strings.Join(reruns, " "), "failed") {
		t.Errorf("reruns %v: want the failed plan run again and failing again (findings are confirmed)", reruns)
	}
	return out, log
}

// keepFailed copies the results directory out to $SIEVE_KEEP_FAILED,
// under the test's name, if the test fails: a t.TempDir is removed, and
// a flaky verdict is read from the traces of both runs of a plan.
func keepFailed(t *testing.T, out string) {
	keep := os.Getenv("SIEVE_KEEP_FAILED")
	if keep == "" {
		return
	}
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		dst := filepath.Join(keep, strings.ReplaceAll(t.Name(), "/", "_"))
		if err := os.CopyFS(dst, os.DirFS(out)); err != nil {
			t.Logf("keeping the results: %v", err)
			return
		}
		t.Logf("results kept in %s", dst)
	})
}

// standinReached holds that in the first reference run of an ensemble run
// in out, the controller asked the members API by the client Service's
// cluster DNS name and got the stand-in's answer (both members). The
// stand-in must have logged the requests.
func standinReached(t *testing.T, out string) {
	t.Helper()
	dir := results.Layout{Root: out}.ReferenceDir(1)
	ctl, err := os.ReadFile(filepath.Join(dir, results.ControllerLog))
	if err != nil {
		t.Fatal(err)
	}
	answer := `"api"="ens-client.default.svc.cluster.local:8080" "generation"=1 "members"=["ens-0" "ens-1"]`
	if !strings.Contains(string(ctl), answer) {
		t.Errorf("the controller's log has no answer from the members API by DNS name (want %s):\n%s", answer, ctl)
	}
	sl, err := os.ReadFile(filepath.Join(dir, standin.LogFile(&ir.Standin{Service: "ens-client"})))
	if err != nil || !strings.Contains(string(sl), "PUT /members/ens-1 generation 1") || !strings.Contains(string(sl), "GET /members from 127.") {
		t.Errorf("the stand-in's log does not show the controller's requests (%v):\n%s", err, sl)
	}
}

// agentsReached holds that in the first reference run of a ring run in
// out, sieve relayed calls to each of the three pods' IPs to the stand-in
// and logged which pod each reached. The stand-in must have told the pods
// apart: ring-2's agent was asked to decommission, and ring-0's answered
// the ring.
func agentsReached(t *testing.T, out string) {
	t.Helper()
	dir := results.Layout{Root: out}.ReferenceDir(1)
	s, _, _ := ir.ParseStandinKey("pods app=ring-node:4567")
	b, err := os.ReadFile(filepath.Join(dir, standin.LogFile(s)))
	for _, want := range []string{"to pod default/ring-0 at 10.", "to pod default/ring-2 at 10.",
		"ring-2: decommission (was NORMAL)", "ring-0: ring ring-0:UN ring-1:UN ring-2:UN", "ring-2 has left the ring"} {
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("the stand-in's log does not say %q (%v):\n%s", want, err, b)
		}
	}
}

// locksLetGo holds that the crash of the ring run in out let go both of
// the killed leader's locks (an unlock fault entry each, without error),
// and that the restarted controller's first read of its ConfigMap lock
// found no holder: it did not wait out the killed one's lease.
func locksLetGo(t *testing.T, out string) {
	t.Helper()
	traces, _ := filepath.Glob(filepath.Join(out, "plans", "user-crash-after-record-*", results.TraceFile))
	if len(traces) != 1 {
		t.Fatalf("want the trace of the one plan, found %v", traces)
	}
	tr, err := trace.Read(traces[0])
	if err != nil {
		t.Fatal(err)
	}
	unlocked := map[string]bool{}
	restarted, firstRead := false, ""
	for i := range tr.Entries {
		e := &tr.Entries[i]
		switch {
		case e.Type == trace.Fault && e.What == "unlock" && e.Error == "":
			unlocked[e.Key.Kind] = true
		case e.Type == trace.Controller && e.What == "restart" && len(unlocked) > 0:
			restarted = true
		case restarted && firstRead == "" && e.Type == trace.Request && e.Verb == "get" && e.Key.Kind == "configmap" && e.Key.Name == "ring-operator-lock":
			rec, _ := leader.Read("configmap", e.Response)
			firstRead = "holder " + strconv.Quote(rec.Holder)
		}
	}
	if !unlocked["configmap"] || !unlocked["lease"] || firstRead != `holder ""` {
		t.Errorf("the crash let go the locks %v; the restarted controller's first read of its lock: %q, want no holder", unlocked, firstRead)
	}
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// planFailed reports whether a plan of the results directory dir (one
// test's) failed, confirmed or not (flaky): a result beside its
// plan.json, which reruns confirm (the explore stage's results have none).
func planFailed(t *testing.T, dir string) bool {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "plans", "*", results.PlanFile))
	for _, f := range files {
		var r struct {
			Status string `json:"status"`
		}
		b, err := os.ReadFile(filepath.Join(filepath.Dir(f), results.ResultFile))
		if err == nil && json.Unmarshal(b, &r) == nil && (r.Status == string(results.Failed) || r.Status == string(results.Flaky)) {
			return true
		}
	}
	return false
}

// findings returns every finding of every plan's result in the results
// directory dir (laid out for one test, or for several), and the status of
// every rerun made to confirm them.
func findings(t *testing.T, dir string) ([]finding, []string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*", "plans", "*", "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(dir, "plans", "*", "result.json"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatalf("no plan results in %s", dir)
	}
	var out []finding
	var reruns []string
	for _, f := range files {
		var r struct {
			Findings []finding `json:"findings"`
			Reruns   []struct {
				Status string `json:"status"`
			} `json:"reruns"`
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, r.Findings...)
		for _, rr := range r.Reruns {
			reruns = append(reruns, rr.Status)
		}
	}
	return out, reruns
}

func anyOf(fs []finding, ok func(finding) bool) bool {
	for _, f := range fs {
		if ok(f) {
			return true
		}
	}
	return false
}
