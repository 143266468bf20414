package ir

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sievetool/sieve/lang/diag"
)

// Version is the version of the IR's JSON form. It changes whenever a field
// changes meaning or is removed.
const Version = 1

// Spec is a compiled spec file: the tests it defines, each self-contained.
type Spec struct {
	Version int `json:"version"`
	// File is the spec file as given (slash-separated). Paths inside the IR
	// (manifests, CRDs, build packages) are relative to its directory, or
	// absolute as written (see OSPath).
	File  string  `json:"file"`
	Tests []*Test `json:"tests"`
}

// Test is the unit `sieve run` executes: a controller, the workloads to drive
// it, the faults to inject, and how to judge the result. All references are
// resolved to copies, so a Test stands alone.
type Test struct {
	Name       string       `json:"name"`
	Src        diag.Range   `json:"src"`
	Controller *Controller  `json:"controller"`
	Workloads  []*Workload  `json:"workloads"`
	Policies   []*Policy    `json:"policies,omitempty"`
	Masks      []*Mask      `json:"masks,omitempty"`
	Invariants []*Invariant `json:"invariants,omitempty"`
	Plans      []*Plan      `json:"plans,omitempty"`
	// Runs is how many fault-free reference runs to record (default 2).
	Runs int `json:"runs"`
	// Converge bounds how long a plan run waits, after its workload and
	// fault, for the controller to repair the objects that differ from
	// the reference's end state before they count (nil: DefaultConverge;
	// 0: no wait).
	Converge *Duration `json:"converge,omitempty"`
	// Quiet is the quiet bound. A settle, and a hold while the workload
	// waits, ends once the controller and the cluster have done nothing
	// for this long with nothing under way or due. Their own durations
	// are then only upper bounds (nil: DefaultQuiet; 0: no early end).
	Quiet *Duration `json:"quiet,omitempty"`
	// Settle is the run's settle window (nil: DefaultSettle). After the
	// workload, and again after the fault, a run waits until the
	// controller has been quiet this long (sooner on the evidence: Quiet).
	// A hold while the workload waits is lifted once nothing has moved for
	// this long.
	Settle *Duration `json:"settle,omitempty"`
	// SettleMax bounds every settle of a run, for a controller that is
	// never quiet: the run's own settles, and each settle step of its
	// workloads (or twice the step's window, if longer) (nil:
	// DefaultSettleMax).
	SettleMax *Duration `json:"settleMax,omitempty"`
	// Kubernetes is the older Kubernetes minor version (one of
	// KubernetesLines) whose API server, controller manager and
	// scheduler the embedded backend runs for this test ("": its own).
	Kubernetes string `json:"kubernetes,omitempty"`
}

// KubernetesLines are the older Kubernetes versions a test may choose
// (the embedded backend's controlplane.Lines): 1.21 is the last that
// serves apiextensions.k8s.io/v1beta1 and, with it, policy/v1beta1.
var KubernetesLines = []string{"1.21"}

// DefaultRuns is how many reference runs a test that sets no runs records.
const DefaultRuns = 2

// DefaultNamespace is the namespace a controller manages when its spec
// names none.
const DefaultNamespace = "default"

// NewTest returns test name, written at src, with the defaults both
// front ends start from: DefaultRuns runs and no workloads yet.
func NewTest(name string, src diag.Range) *Test {
	return &Test{Name: name, Src: src, Runs: DefaultRuns, Workloads: []*Workload{}}
}

// NewController returns controller name, written at src, with the
// defaults both front ends start from: it manages DefaultNamespace and
// reads KUBECONFIG.
func NewController(name string, src diag.Range) *Controller {
	return &Controller{Name: name, Src: src, Namespaces: []string{DefaultNamespace}, Kubeconfig: Kubeconfig{Env: true}}
}

// NewPolicy returns policy name, written at src, with the defaults both
// front ends start from: no patterns yet and DefaultPrune.
func NewPolicy(name string, src diag.Range) *Policy {
	return &Policy{Name: name, Src: src, Patterns: []Pattern{}, Prune: DefaultPrune}
}

// NewMask returns mask name, written at src, with no rules yet.
func NewMask(name string, src diag.Range) *Mask {
	return &Mask{Name: name, Src: src, Rules: []*MaskRule{}}
}

// NewInvariant returns invariant name, written at src, with the default
// that both front ends start from: it holds Always.
func NewInvariant(name string, src diag.Range) *Invariant {
	return &Invariant{Name: name, Src: src, When: Always}
}

// DefaultQuiet is the quiet bound of a test that sets none: long enough
// for a controller on a loaded machine to answer an event it was just
// given, well short of the 2 s settle windows of the examples.
const DefaultQuiet = 500 * time.Millisecond

// DefaultConverge is the converge bound of a test that sets none: a
// controller's typical 30 s periodic resync (operator-sdk's RequeueAfter,
// a SyncPeriod), plus the time its repair takes.
const DefaultConverge = 35 * time.Second

// DefaultSettle is the settle window of a test that sets none: the upper
// bound, a controller quiet for it has settled whatever else holds.
const DefaultSettle = 2 * time.Second

// DefaultSettleMax is the bound on a settle of a test that sets none: a
// controller that polls, or keeps changing something, does not hold up
// the run for longer.
const DefaultSettleMax = 60 * time.Second

// DefaultStepSettle is the bound of a workload's settle step that gives
// none (`settle` alone).
const DefaultStepSettle = 5 * time.Second

// DefaultWithin is the bound of a workload's wait step that gives none.
const DefaultWithin = 60 * time.Second

// DefaultHoldFor bounds a hold whose bound nothing else gives: a user
// plan's `hold KEY` without `for`, and the floor of the bound a generated
// plan learns from its reference runs (interp/analysis/plan).
const DefaultHoldFor = 10 * time.Second

// DefaultReadyWithin bounds a controller's readiness check that gives no
// within.
const DefaultReadyWithin = 30 * time.Second

// SettleBounds returns the test's settle window and its bound on a
// settle: Settle and SettleMax, or their defaults.
func (t *Test) SettleBounds() (window, limit time.Duration) {
	window, limit = DefaultSettle, DefaultSettleMax
	if t.Settle != nil {
		window = t.Settle.D()
	}
	if t.SettleMax != nil {
		limit = t.SettleMax.D()
	}
	return window, limit
}

// CheckSettle returns a message when the test's bound on a settle is
// shorter than its settle window (a window the run's settles could never
// reach), or "". The message is about SettleMax when the test sets it,
// else about Settle. Durations that are not positive are left to the
// front ends' own checks.
func CheckSettle(t *Test) string {
	window, limit := t.SettleBounds()
	switch {
	case window <= 0 || limit <= 0 || limit >= window:
		return ""
	case t.SettleMax == nil:
		return fmt.Sprintf("settle: %s is longer than settle_max (default %s)", window, limit)
	case t.Settle == nil:
		return fmt.Sprintf("settle_max: %s is shorter than settle (default %s)", limit, window)
	}
	return fmt.Sprintf("settle_max: %s is shorter than settle %s", limit, window)
}

// Controller says how to start the controller under test.
type Controller struct {
	Name string     `json:"name"`
	Src  diag.Range `json:"src"`
	// Build is a Go package to build (relative path or import path).
	// Exactly one of Build, Command and Builtin is set.
	Build   string   `json:"build,omitempty"`
	Command []string `json:"command,omitempty"`
	// Builtin names a kube-controller-manager controller (e.g.
	// "statefulset") that sieve runs as its own process as the controller
	// under test; it is left out of the embedded controller-manager.
	Builtin string   `json:"builtin,omitempty"`
	Args    []string `json:"args,omitempty"`
	Env     []EnvVar `json:"env,omitempty"`
	Dir     string   `json:"dir,omitempty"`
	CRDs    []string `json:"crds,omitempty"`
	// Namespaces the controller manages; the first is its own namespace.
	Namespaces []string `json:"namespaces"`
	// Kubeconfig says how the controller finds the API server.
	Kubeconfig Kubeconfig `json:"kubeconfig"`
	// Ready, when set, is how to tell the controller has started.
	Ready *Readiness `json:"ready,omitempty"`
	// Replaces names built-in kube-controller-manager controllers
	// (e.g. "statefulset") to leave out of the embedded backend because the
	// controller under test does their job.
	Replaces []string `json:"replaces,omitempty"`
	// Exec answers the controller's execs into pods, first match wins;
	// an exec that none matches fails as an exec into a container that
	// does not run.
	Exec []*ExecStandIn `json:"exec,omitempty"`
	// Pod, when set, describes the emulated pod of in-cluster mode beyond
	// its name and namespace.
	Pod *Pod `json:"pod,omitempty"`
	// Standins are programs that stand in for Services the controller
	// talks to, in its private network.
	Standins []*Standin `json:"standins,omitempty"`
}

// Standin is a program run for a Service of the controller's namespace,
// reachable at the Service's DNS names and ports while a run lasts. With
// Pods, it runs for every pod whose labels match, reachable at each such
// pod's IP and the ports.
type Standin struct {
	Src diag.Range `json:"src"`
	// Service is the Service's name; "" for a pod stand-in.
	Service string `json:"service,omitempty"`
	// Pods is a pod stand-in's label selector, in Kubernetes' syntax
	// (KEY=VALUE, KEY!=VALUE, KEY, !KEY, comma-separated; "==" written
	// as "=" and spaces dropped).
	Pods string `json:"pods,omitempty"`
	// Ports are the ports it listens on; the first is STANDIN_PORT.
	Ports   []int    `json:"ports"`
	Command []string `json:"command"`
	Env     []EnvVar `json:"env,omitempty"`
}

// Pod is what a spec says of the controller's emulated pod: what its
// Deployment's pod template would hold.
type Pod struct {
	Src diag.Range `json:"src"`
	// Labels are the pod's labels, besides sieve's own.
	Labels map[string]string `json:"labels,omitempty"`
	// ServiceAccount is the pod's service account (default "default").
	ServiceAccount string `json:"serviceAccount,omitempty"`
	// FieldEnv are downward-API variables: Value is a field path of the
	// pod (PodFieldPaths), resolved when the pod is created.
	FieldEnv []EnvVar `json:"fieldEnv,omitempty"`
}

// PodFieldPaths are the downward-API field paths a Pod's FieldEnv may
// name; metadata.labels['KEY'] and metadata.annotations['KEY'] too.
var PodFieldPaths = []string{"metadata.name", "metadata.namespace", "metadata.uid", "spec.serviceAccountName", "spec.nodeName", "status.podIP", "status.hostIP"}

// EnvVar is one environment variable for the controller.
type EnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Kubeconfig says how the controller is pointed at the API server.
type Kubeconfig struct {
	// Env sets KUBECONFIG (the default).
	Env bool `json:"env"`
	// Flag, when set, is passed as "Flag=PATH" (e.g. "--kubeconfig").
	Flag string `json:"flag,omitempty"`
	// InCluster emulates a pod: service-account files, KUBERNETES_SERVICE_*.
	InCluster bool `json:"inCluster,omitempty"`
}

// Readiness is how to tell the controller has started.
type Readiness struct {
	Src diag.Range `json:"src"`
	// Exactly one of the following is set.
	LogLine string   `json:"logLine,omitempty"` // a regexp matched against its output
	HTTPGet string   `json:"httpGet,omitempty"` // a URL answering 2xx
	Timeout Duration `json:"timeout"`
}

// Workload is an instantiated workload: parameters already substituted.
type Workload struct {
	Name string     `json:"name"`
	Src  diag.Range `json:"src"`
	// Args are the parameter values used, in declaration order.
	Args  []Arg   `json:"args,omitempty"`
	Steps []*Step `json:"steps"`
}

// Arg is one workload or invariant parameter and its value.
type Arg struct {
	Name  string `json:"name"`
	Value Value  `json:"value"`
}

// StepKind names a workload step.
type StepKind string

// Workload step kinds.
const (
	StepApply  StepKind = "apply"
	StepPatch  StepKind = "patch"
	StepDelete StepKind = "delete"
	StepScale  StepKind = "scale"
	StepWait   StepKind = "wait"
	StepSettle StepKind = "settle"
	StepSleep  StepKind = "sleep"
)

// Step is one workload step. Which fields are set depends on Kind.
type Step struct {
	Kind StepKind   `json:"kind"`
	Src  diag.Range `json:"src"`

	// apply: File or Manifest (inline YAML, one or more documents), then
	// Set overrides, each applied to the documents it fits (FieldSet.Fits).
	File     string     `json:"file,omitempty"`
	Manifest string     `json:"manifest,omitempty"`
	Set      []FieldSet `json:"set,omitempty"`

	// patch, delete, scale, wait: the object(s). Globs are allowed in
	// delete and wait.
	Target *Ref `json:"target,omitempty"`

	// patch
	PatchType PatchType `json:"patchType,omitempty"`
	Patch     string    `json:"patch,omitempty"` // JSON
	// Explored, on a patch step that an explore step expanded into, is
	// the operation the patch makes.
	Explored *Operation `json:"explored,omitempty"`
	// States, on the apply of the seed that an explore step expanded
	// into, is the step's states clause; nil for none (DefaultStates).
	States *States `json:"states,omitempty"`

	// scale
	Replicas int `json:"replicas,omitempty"`

	// wait
	Until *WaitCond `json:"until,omitempty"`

	// wait: the timeout; settle: the quiet window; sleep: how long the
	// workload pauses.
	Timeout Duration `json:"timeout,omitempty"`
	// Continue, on a wait, lets the workload go on when the wait times out
	// ("else continue") instead of failing it; the trace records whether
	// the condition was met.
	Continue bool `json:"continue,omitempty"`
}

// KindName is the kind of an object as traces and Refs name it, for an
// API group and kind: the lowercase kind for Kubernetes' own groups
// ("statefulset", "lease"), and lowercase kind + "." + group for the rest
// ("datastore.example.com").
func KindName(group, kind string) string {
	k := strings.ToLower(kind)
	if BuiltinGroup(group) {
		return k
	}
	return k + "." + group
}

// BuiltinGroup reports whether group is one of Kubernetes' own: the core
// group, the unqualified groups (apps, batch, ...) and *.k8s.io.
func BuiltinGroup(group string) bool {
	return !strings.Contains(group, ".") || strings.HasSuffix(group, ".k8s.io")
}

// Operation is one operation of an explored workload (lang/explore): a
// property of the explored resource changed to a new value.
type Operation struct {
	// Resource is the explored custom resource; its Kind is the lowercase
	// kind and the group ("datastore.example.com"), as traces key it.
	Resource Ref `json:"resource"`
	// Path is the property, a Path in its text form (spec.replicas).
	Path string `json:"path"`
	// Change is the kind of change (lang/explore's Change: bound, flip,
	// add-item, unset, ...).
	Change string `json:"change"`
	// Value is the property's new value (the new item or entry for
	// add-item and add-entry); nil when the change removes it.
	Value Value `json:"value,omitempty"`
}

// States says which states on the way of an explored sequence the
// differential oracle applies at once to a fresh cluster, besides the
// final state: an explore step's states clause. Its zero value is the
// default rule.
type States struct {
	// Rule picks the states: StatesChanged, StatesEvery or StatesNone.
	Rule StatesRule `json:"rule,omitempty"`
	// Max, with StatesEvery, is the most states, the first in operation
	// order; 0 for no bound.
	Max int `json:"max,omitempty"`
}

// StatesRule is a rule of States.
type StatesRule string

// The rules of States.
const (
	// StatesChanged (no states clause) picks, for each property an
	// operation set to a value the final state no longer has, the state
	// after the last such operation: at most DefaultStates of them.
	StatesChanged StatesRule = ""
	// StatesEvery (states all, states N) picks the state after every
	// operation.
	StatesEvery StatesRule = "every"
	// StatesNone (states none) picks none: the final state alone.
	StatesNone StatesRule = "none"
)

// DefaultStates is the most states StatesChanged picks per explore step,
// in operation order, so that the differential oracle costs a few runs.
const DefaultStates = 4

// Bound returns the most states s picks; -1 for no bound.
func (s States) Bound() int {
	switch s.Rule {
	case StatesNone:
		return 0
	case StatesEvery:
		if s.Max == 0 {
			return -1
		}
		return s.Max
	}
	return DefaultStates
}

// StatesWant says what a states clause takes, for an error about its
// value.
const StatesWant = "all, none or a number of states"

// StatesWords are the words a states clause takes besides a number.
func StatesWords() []string { return []string{"all", "none"} }

// StatesWord returns the States of a states clause's word: all (every
// operation's state) or none. Not ok for another word.
func StatesWord(w string) (States, bool) {
	switch w {
	case "all":
		return States{Rule: StatesEvery}, true
	case "none":
		return States{Rule: StatesNone}, true
	}
	return States{}, false
}

// FieldSet overrides one field of an applied manifest.
type FieldSet struct {
	Path  string `json:"path"` // a Path in its text form, e.g. spec.replicas
	Value Value  `json:"value"`
	// Only, when set, is the one document the set applies to (its kind as
	// traces key it, KindName), whatever Fits says: the explore stage's
	// run of a final state at once sets the explored resource alone.
	Only *Ref `json:"only,omitempty"`
}

// Fits says which documents of a manifest the set applies to, each
// document given by its top-level fields. The set applies to those that
// have the path's first field, or to every one when none has it (the set
// then makes the field, as for a single document without spec). Every
// document has metadata, so metadata.name applies to all. Beside a
// cluster with a spec, a ServiceAccount has none, so spec.replicas leaves
// it alone.
func (f FieldSet) Fits(docs [][]string) []bool {
	out := make([]bool, len(docs))
	p, err := ParsePath(f.Path)
	any := false
	for i, fields := range docs {
		out[i] = err != nil || len(p) == 0 || p[0].Kind != PathField || slices.Contains(fields, p[0].Name)
		any = any || out[i]
	}
	if !any {
		for i := range out {
			out[i] = true
		}
	}
	return out
}

// PatchType is the kind of patch a patch step sends.
type PatchType string

// Patch types.
const (
	PatchMerge     PatchType = "merge"
	PatchJSON      PatchType = "json"
	PatchStrategic PatchType = "strategic"
)

// WaitKind names a wait condition.
type WaitKind string

// Wait conditions.
const (
	WaitExists WaitKind = "exists" // at least one object matches Target
	WaitGone   WaitKind = "gone"   // no object matches Target
	WaitField  WaitKind = "field"  // Path equals Value on every match (Path is set when Exists)
	WaitCEL    WaitKind = "cel"    // Expr is true (see Invariant for the environment)
	WaitReady  WaitKind = "ready"  // Count matching objects are ready (pods: Ready condition; others: status conditions Ready/Available)
)

// WaitCond is what a wait step waits for.
type WaitCond struct {
	Kind  WaitKind `json:"kind"`
	Path  string   `json:"path,omitempty"` // a Path in its text form
	Value Value    `json:"value,omitempty"`
	// Exists, with WaitField, waits for Path to be set rather than equal.
	Exists bool   `json:"exists,omitempty"`
	Expr   string `json:"expr,omitempty"`
	Count  int    `json:"count,omitempty"`
}

// Ref names Kubernetes objects as kind/namespace/name. Kind is the
// lowercase singular kind, optionally with its group ("statefulset",
// "datastore.example.com"). Namespace and Name may be globs; Namespace is
// empty for cluster-scoped objects.
type Ref struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// String formats the reference as kind/namespace/name (kind/name when
// cluster-scoped).
func (r Ref) String() string {
	if r.Namespace == "" {
		return r.Kind + "/" + r.Name
	}
	return r.Kind + "/" + r.Namespace + "/" + r.Name
}

// Pattern names a fault pattern.
type Pattern string

// Fault patterns.
const (
	Intermediate Pattern = "intermediate"
	Stale        Pattern = "stale"
	Unobserved   Pattern = "unobserved"
	APIError     Pattern = "apierror"
	AppFault     Pattern = "appfault"
)

// APIErrorKind names an error a real API server answers a write with,
// which an apierror plan gives the controller in place of the server's
// answer (interp/run/proxy makes the Status client-go decodes), or, for
// ErrGone, the end a real API server gives a watch.
type APIErrorKind string

// API errors.
const (
	ErrConflict        APIErrorKind = "conflict"          // 409 Conflict, the write not applied
	ErrTooManyRequests APIErrorKind = "too_many_requests" // 429 with Retry-After, the write not applied
	ErrInternal        APIErrorKind = "internal_error"    // 500 InternalError, the write not applied
	ErrTimeout         APIErrorKind = "timeout"           // 504 Timeout, the write not applied
	ErrTimeoutApplied  APIErrorKind = "timeout_applied"   // 504 Timeout, the write applied all the same
	ErrGone            APIErrorKind = "gone"              // a watch ended with 410 Expired after an event: the controller lists again
)

// APIErrorKinds lists every API error, in the order they are documented.
func APIErrorKinds() []APIErrorKind {
	return []APIErrorKind{ErrConflict, ErrTooManyRequests, ErrInternal, ErrTimeout, ErrTimeoutApplied, ErrGone}
}

// APIErrorNames returns the names of APIErrorKinds, in the same order.
func APIErrorNames() []string {
	var out []string
	for _, k := range APIErrorKinds() {
		out = append(out, string(k))
	}
	return out
}

// DefaultAPIErrors are the errors an apierror plan is made with when the
// policy names none: the two that reach the controller's code with
// client-go (a 429 with Retry-After is retried inside client-go, and a
// watch ended with 410, ErrGone, is listed again inside its informer).
func DefaultAPIErrors() []APIErrorKind { return []APIErrorKind{ErrConflict, ErrInternal} }

// ReadVerbs are the verbs of the reads an apierror plan can answer: a
// get of one object, a list of a kind.
func ReadVerbs() []string { return []string{"get", "list"} }

// ReadErrors are the API errors that answer a read: a real API server
// fails a get or a list with a 429, a 500 or a timeout; a conflict, an
// applied timeout and gone are about writes and watches.
func ReadErrors() []APIErrorKind { return []APIErrorKind{ErrTooManyRequests, ErrInternal, ErrTimeout} }

// ReadsProblem says what is wrong with a policy's APIReads, or "": it
// names reads while none of its errors (DefaultAPIErrors when it names
// none) answers a read. Both front ends report it.
func ReadsProblem(p *Policy) string {
	kinds := p.APIErrors
	if len(kinds) == 0 {
		kinds = DefaultAPIErrors()
	}
	if len(p.APIReads) == 0 || slices.ContainsFunc(kinds, APIErrorKind.AnswersRead) {
		return ""
	}
	return fmt.Sprintf("api_reads: no error of api_errors answers a read (add %s to api_errors)", readErrorList())
}

// AnswersRead reports whether error k can answer a read (ReadErrors).
func (k APIErrorKind) AnswersRead() bool { return slices.Contains(ReadErrors(), k) }

// AppFaultKind names a wrong answer an appfault plan gives one call the
// controller makes to its application (an exec into a pod, an HTTP
// exchange with a stand-in) in the application's place.
type AppFaultKind string

// Application faults. Each applies to the calls of one channel.
const (
	FaultExecError   AppFaultKind = "exec_error"  // an exec: a non-zero exit with a stderr line
	FaultUnavailable AppFaultKind = "unavailable" // an HTTP request: 503 with a short body
	FaultReset       AppFaultKind = "reset"       // an HTTP request: the connection reset before a response
	FaultHang        AppFaultKind = "hang"        // an exec or an HTTP request: no answer until the caller gives up or HangBound passes
	FaultTruncated   AppFaultKind = "truncated"   // an HTTP request: the stand-in's response cut in half, the connection closed
	FaultStale       AppFaultKind = "stale"       // an exec or an HTTP request: the answer the reference gave the same call earlier
)

// HangBound is how long a hang fault holds a call without an answer when
// the controller does not give up first: then the relay resets the
// connection, and an exec ends with an error.
const HangBound = 30 * time.Second

// Channels of the controller's calls to its application: an exec into a
// pod, or an HTTP request to a stand-in (a Service's or a pod's).
const (
	CallExec = "exec"
	CallHTTP = "http"
)

// Answers reports whether fault k answers calls of channel (CallExec or
// CallHTTP): exec_error an exec, hang and stale both, the others an HTTP
// request.
func (k AppFaultKind) Answers(channel string) bool {
	switch k {
	case FaultExecError:
		return channel == CallExec
	case FaultHang, FaultStale:
		return true
	}
	return channel == CallHTTP
}

// AppFaultKinds lists every application fault, in the order they are
// documented.
func AppFaultKinds() []AppFaultKind {
	return []AppFaultKind{FaultExecError, FaultUnavailable, FaultReset, FaultHang, FaultTruncated, FaultStale}
}

// DefaultAppFaults are the faults an appfault policy tries when it names
// none (each on the calls of its channel): all but hang, whose plan may
// wait HangBound for a controller without a client timeout, a cost to
// ask for by name. Stale is in: it makes a plan only where the reference's
// answers to one call changed, and costs a plan no longer than the others.
func DefaultAppFaults() []AppFaultKind {
	return []AppFaultKind{FaultExecError, FaultUnavailable, FaultReset, FaultTruncated, FaultStale}
}

// AppFaultNames returns the names of AppFaultKinds, in the same order.
func AppFaultNames() []string {
	var out []string
	for _, k := range AppFaultKinds() {
		out = append(out, string(k))
	}
	return out
}

// Policy selects which fault plans to generate.
type Policy struct {
	Name     string     `json:"name"`
	Src      diag.Range `json:"src"`
	Patterns []Pattern  `json:"patterns"`
	// Include and Exclude filter the writes and events plans are made for;
	// an empty Include admits everything.
	Include []Filter `json:"include,omitempty"`
	Exclude []Filter `json:"exclude,omitempty"`
	// MaxPlans caps the plans per pattern (0: no cap).
	MaxPlans int   `json:"maxPlans,omitempty"`
	Prune    Prune `json:"prune"`
	// StaleFor is how long a stale view lasts before it is resumed.
	StaleFor Duration `json:"staleFor,omitempty"`
	// StaleQuiet ends a stale view early, once the restarted controller
	// has read the frozen object and been quiet this long (0: the
	// default, 1s).
	StaleQuiet Duration `json:"staleQuiet,omitempty"`
	// HoldFor is how long a hold keeps events back at most when the event
	// that cancels them does not come (0: learned from the reference runs,
	// see interp/analysis/plan).
	HoldFor Duration `json:"holdFor,omitempty"`
	// APIErrors are the errors an apierror plan answers a write with, one
	// plan each (empty: DefaultAPIErrors).
	APIErrors []APIErrorKind `json:"apiErrors,omitempty"`
	// APIReads are the read verbs (ReadVerbs) whose requests an apierror
	// plan also answers, with those of APIErrors that answer a read
	// (ReadErrors); empty: writes (and watches) only.
	APIReads []string `json:"apiReads,omitempty"`
	// AppFaults are the wrong answers an appfault plan gives a call, one
	// plan each (empty: DefaultAppFaults).
	AppFaults []AppFaultKind `json:"appFaults,omitempty"`
}

// Filter matches writes or events by object and verb. Empty fields match
// everything; Kind, Namespace and Name are globs.
type Filter struct {
	Kind      string   `json:"kind,omitempty"`
	Namespace string   `json:"namespace,omitempty"`
	Name      string   `json:"name,omitempty"`
	Verbs     []string `json:"verbs,omitempty"` // create, update, patch, delete, ...
}

// Prune switches the pruning passes on or off. All are on by default.
type Prune struct {
	Causality        bool `json:"causality"`
	NoOp             bool `json:"noop"`
	Failed           bool `json:"failed"`
	Nondeterministic bool `json:"nondeterministic"`
	Duplicates       bool `json:"duplicates"`
}

// DefaultPrune has every pass on.
var DefaultPrune = Prune{Causality: true, NoOp: true, Failed: true, Nondeterministic: true, Duplicates: true}

// Mask is a named set of fields the oracle ignores.
type Mask struct {
	Name  string      `json:"name"`
	Src   diag.Range  `json:"src"`
	Rules []*MaskRule `json:"rules"`
}

// Oracle names a comparison the differential oracle makes.
type Oracle string

// Oracles.
const (
	OracleAll     Oracle = ""        // every comparison
	OracleEnd     Oracle = "end"     // end state
	OracleHistory Oracle = "history" // creation/deletion counts over the run
)

// MaskRule masks one thing on the objects Target matches (default */*/*).
// Exactly one of Key, Path, Value and Whole is set.
type MaskRule struct {
	Src    diag.Range `json:"src"`
	Target Ref        `json:"target"`
	// Key masks a field of that name at any depth.
	Key string `json:"key,omitempty"`
	// Path masks one field path (a Path in its text form); "*" matches
	// any map key or list index.
	Path string `json:"path,omitempty"`
	// Value masks string values of a kind anywhere: "timestamp" or "ip".
	Value string `json:"value,omitempty"`
	// Whole masks the objects entirely.
	Whole  bool   `json:"whole,omitempty"`
	Oracle Oracle `json:"oracle,omitempty"`
}

// When says where an invariant is checked.
type When string

// Invariant checking points.
const (
	Always     When = "always"     // every state in the cluster history
	AtEnd      When = "end"        // the end state only
	Eventually When = "eventually" // some state in the history
	Never      When = "never"      // no state in the history
)

// Invariant is a CEL expression that must hold. It sees
// objects(kind, namespace) -> list of objects, and object(kind, namespace,
// name) -> the object or null, and its parameters as constants.
type Invariant struct {
	Name string     `json:"name"`
	Src  diag.Range `json:"src"`
	Expr string     `json:"expr"`
	When When       `json:"when"`
	// Args are the values of the invariant's parameters, in declaration
	// order, which Expr sees as constants of their names.
	Args []Arg `json:"args,omitempty"`
	// Between limits an invariant over the history (always, eventually,
	// never) to the states from the end of one workload step to the
	// start of another (nil: the whole run).
	Between *Window `json:"between,omitempty"`
}

// Label names the invariant in findings: its name, and its arguments
// when it has any, so that two uses of one invariant stay apart:
// pvc_kept(name = "data-0", namespace = "default").
func (i *Invariant) Label() string {
	if len(i.Args) == 0 {
		return i.Name
	}
	parts := make([]string, len(i.Args))
	for j, a := range i.Args {
		b, err := json.Marshal(a.Value)
		if err != nil {
			b = []byte(fmt.Sprint(a.Value))
		}
		parts[j] = a.Name + " = " + string(b)
	}
	return i.Name + "(" + strings.Join(parts, ", ") + ")"
}

// ArgMap returns the arguments by name.
func (i *Invariant) ArgMap() map[string]any {
	out := make(map[string]any, len(i.Args))
	for _, a := range i.Args {
		out[a.Name] = a.Value
	}
	return out
}

// Window is the stretch of a run from the end of workload step From to
// the start of step To (their first occurrences, To after From).
type Window struct {
	From StepRef `json:"from"`
	To   StepRef `json:"to"`
}

// StepRef names a workload step: the workload (its IR name, as the trace
// writes it) and the step's number in it, from 1.
type StepRef struct {
	Workload string `json:"workload"`
	Step     int    `json:"step"`
}

// String formats the reference as .sieve writes it: resize[2].
func (r StepRef) String() string { return fmt.Sprintf("%s[%d]", r.Workload, r.Step) }

// Plan is an explicit, user-written test plan: actions fired by triggers.
type Plan struct {
	Name    string     `json:"name"`
	Src     diag.Range `json:"src"`
	Actions []*Action  `json:"actions"`
}

// ActionKind names what a plan does to the controller or its view.
type ActionKind string

// Plan actions.
const (
	ActCrash    ActionKind = "crash"     // SIGKILL the controller and start it again
	ActRestart  ActionKind = "restart"   // as crash: the restart is the occasion, not the fault
	ActStaleOn  ActionKind = "stale-on"  // freeze the controller's view of Scope
	ActStaleOff ActionKind = "stale-off" // unfreeze it
	ActHold     ActionKind = "hold"      // hold watch events for Scope
	ActRelease  ActionKind = "release"   // deliver the newest held state only
	ActWait     ActionKind = "wait"      // pause the plan for Duration
	ActPause    ActionKind = "pause"     // stop the controller (SIGSTOP) until resume, for Duration at most
	ActResume   ActionKind = "resume"    // let it go on (SIGCONT)
	ActError    ActionKind = "error"     // answer the write about to be sent with an API error
	ActAppFault ActionKind = "app-fault" // answer the call about to be answered with an application fault
)

// DefaultPauseFor bounds a pause that gives no bound of its own (pause
// without for) when no resume ends it sooner.
const DefaultPauseFor = 10 * time.Second

// PauseProblem is a pause or resume out of place in a plan: Action is its
// index, Msg what is wrong (see PauseProblems).
type PauseProblem struct {
	Action int
	Msg    string
}

// PauseProblems checks the pauses and resumes of a plan's actions, which
// run in order: a resume needs a pause before it that no resume has ended
// yet, and a pause needs the controller not paused already. Both front
// ends report them.
func PauseProblems(acts []*Action) []PauseProblem {
	var out []PauseProblem
	paused := -1 // the pause in force
	for i, a := range acts {
		switch {
		case a == nil:
		case a.Kind == ActPause && paused >= 0:
			out = append(out, PauseProblem{i, fmt.Sprintf("pause: the controller is already paused by step %d (resume it first)", paused+1)})
		case a.Kind == ActPause:
			paused = i
		case a.Kind == ActResume && paused < 0:
			out = append(out, PauseProblem{i, "resume: the controller is not paused here (resume goes after a pause of the same plan)"})
		case a.Kind == ActResume:
			paused = -1
		}
	}
	return out
}

// Action is one step of a user plan.
type Action struct {
	Kind  ActionKind `json:"kind"`
	Src   diag.Range `json:"src"`
	Scope *Ref       `json:"scope,omitempty"`
	// Duration is how long a wait pauses the plan, or how long a hold
	// keeps events back at most (0: DefaultHoldFor), or how long a pause
	// stops the controller at most (0: DefaultPauseFor).
	Duration Duration `json:"duration,omitempty"`
	// At, on a stale-on action, is an event leaf: the view is frozen at the
	// revision of Scope the controller had been shown when that event
	// (counted from the start of the run) was delivered.
	At *Trigger `json:"at,omitempty"`
	// Error, on an error action, is the API error the write (or the
	// watch) its trigger ends on is answered with.
	Error APIErrorKind `json:"error,omitempty"`
	// AppFault, on an app-fault action, is the wrong answer the call its
	// trigger ends on gets.
	AppFault AppFaultKind `json:"appFault,omitempty"`
	// Trigger fires the action; nil means right after the previous action.
	Trigger *Trigger `json:"trigger,omitempty"`
}

// TriggerOp names a trigger node.
type TriggerOp string

// Trigger nodes: six leaves and three combinators.
const (
	TrigEvent   TriggerOp = "event"   // the controller observes an object change
	TrigWrite   TriggerOp = "write"   // the controller's write succeeded
	TrigTimeout TriggerOp = "timeout" // Duration after the plan (or the previous action) started
	TrigSeq     TriggerOp = "then"    // a ; b — b after a has fired
	TrigAll     TriggerOp = "all"     // a & b — both, in any order
	TrigAny     TriggerOp = "any"     // a | b — either

	// TrigQuiet is the fourth leaf: it fires once the controller has read
	// Target (a get, list or watch that may return it) and then sent no
	// request and received no event for Duration, its latest write not
	// failed. Generated stale-state plans end their stale view with it
	// ("quiet for D after reading KEY").
	TrigQuiet TriggerOp = "quiet"

	// TrigCall is the fifth leaf: a call of the controller to its
	// application (an exec into a pod, an HTTP request to a stand-in),
	// as it is about to be answered. Appfault plans fire on it ("on call
	// ...").
	TrigCall TriggerOp = "call"

	// TrigRead is the sixth leaf: a read of the controller (a get of one
	// object, a list of a kind; On says which, Target what it reads) as
	// it is sent, before the API server has seen it. An error action
	// answers it ("on read list KEY ...").
	TrigRead TriggerOp = "read"
)

// Trigger is a tree: leaves match what the controller sees or does,
// combinators join them. Count (default 1) is the occurrence that fires a
// leaf.
type Trigger struct {
	Op  TriggerOp  `json:"op"`
	Src diag.Range `json:"src"`

	// Leaves.
	On       string   `json:"on,omitempty"` // event: create, update, delete; write: create, update, patch, delete; read: get, list
	Target   *Ref     `json:"target,omitempty"`
	Where    *Cond    `json:"where,omitempty"`
	Count    int      `json:"count,omitempty"`
	Duration Duration `json:"duration,omitempty"`
	// Event and write leaves may also name the very change a generated
	// plan was made from. That is a write's Subresource, a refused write
	// (Failed), or a change in the cluster history rather than one
	// delivered to the controller (Seen "cluster"). It may be the change
	// itself (Changing), or a change after which the object no longer
	// holds a fragment (Without).
	Subresource string         `json:"subresource,omitempty"`
	Failed      bool           `json:"failed,omitempty"`
	Seen        string         `json:"seen,omitempty"`
	Changing    *Change        `json:"changing,omitempty"`
	Without     map[string]any `json:"without,omitempty"`
	// Sent, on a write leaf, matches the write as the controller sends it,
	// before the API server has seen it ("after sending write ..."); an
	// error action answers that write.
	Sent bool `json:"sent,omitempty"`

	// Call leaves: On is the channel (CallExec, CallHTTP; empty: any),
	// Target the pod, Command an exec's command, Standin the stand-in an
	// HTTP request went to, Method and Path the request's method and
	// target. Empty fields match any call. Changed matches a call once
	// answered, when its answer differs from the previous equal call's
	// ("changed"): Count counts those. Only a stale appfault ends on it.
	Command []string `json:"command,omitempty"`
	Standin string   `json:"standin,omitempty"`
	Method  string   `json:"method,omitempty"`
	Path    string   `json:"path,omitempty"`
	Changed bool     `json:"changed,omitempty"`

	// Combinators.
	Args []*Trigger `json:"args,omitempty"`
}

// Change is the slim diff of a change: the fields it changed, before
// (Prev) and after (Cur); see docs/plan.md.
type Change struct {
	Prev map[string]any `json:"prev"`
	Cur  map[string]any `json:"cur"`
}

// SeenCluster is the Seen of a leaf that matches changes in the cluster
// history.
const SeenCluster = "cluster"

// Cond is a condition on an object: a field equal to a value, a field set
// (Value nil, Exists true), or a CEL expression over `object`.
type Cond struct {
	Path   string `json:"path,omitempty"` // a Path in its text form
	Value  Value  `json:"value,omitempty"`
	Exists bool   `json:"exists,omitempty"`
	Expr   string `json:"expr,omitempty"`
}

// OSPath turns a file path of the IR (slash-separated; relative to the
// spec's directory base unless absolute) into an operating system path.
// An absolute path means the same file wherever the spec is.
func OSPath(base, p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(base, p)
}
