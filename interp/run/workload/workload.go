package workload

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/input"
	"github.com/sievetool/sieve/lang/ir"
)

// FieldManager is the server-side apply field manager of workload steps.
const FieldManager = "sieve"

// DefaultWaitTimeout bounds a wait step that names no timeout.
const DefaultWaitTimeout = 2 * time.Minute

// Executor runs workload steps against a cluster.
type Executor struct {
	// Config is the admin client configuration.
	Config *rest.Config
	// Namespace is used for namespaced objects in manifests that name none.
	Namespace string
	// BaseDir is the directory IR paths are relative to.
	BaseDir string
	// Sink, if set, receives a Step entry when each step starts and ends.
	Sink func(trace.Entry)
	// Settle waits until the controller has settled, the window the
	// longest quiet it needs (the run may take less on evidence); nil
	// sleeps for the window.
	Settle func(ctx context.Context, window time.Duration) error
	// SettleMax bounds a settle step, or twice its window if longer. So a
	// controller that is never quiet for the window (it polls, or keeps
	// changing something) does not stall the workload. The step then
	// ends, and its end entry says so. Default ir.DefaultSettleMax.
	SettleMax time.Duration
	// CEL compiles wait conditions; nil builds an environment on first use.
	CEL *celenv.Env
	// Owner, on a cluster sieve does not own, confines the steps to what
	// the run created (see Owner); nil: the cluster is sieve's.
	Owner *Owner
	// Wrote, if set, receives each object an apply, patch or scale step
	// wrote: its key, the resourceVersion of the write's answer and its
	// labels (nil for a scale, whose answer is the Scale). A delete is
	// not reported: its answer is often a Status, with no version.
	Wrote func(key trace.Key, resourceVersion string, labels map[string]string)

	dyn    dynamic.Interface
	mapper *mapper
	// saw gathers what the current step saw (its end entry's Seen).
	saw *seen
}

// StepError is a failed workload step, naming the spec line.
type StepError struct {
	Src  diag.Range
	Kind ir.StepKind
	Err  error
}

// Error formats the error as "file:line:col: kind: what went wrong".
func (e *StepError) Error() string { return fmt.Sprintf("%s: %s: %v", e.Src, e.Kind, e.Err) }

// Unwrap returns the underlying error.
func (e *StepError) Unwrap() error { return e.Err }

// Run executes every step of the workload in order and stops at the first
// failure. An explored patch the API server refuses is no failure: its
// end entry says it was refused (trace.Refused) and the workload goes on.
func (x *Executor) Run(ctx context.Context, w *ir.Workload) error {
	if err := x.init(); err != nil {
		return err
	}
	for i, s := range w.Steps {
		if err := x.step(ctx, w.Name, i, s); err != nil {
			return err
		}
	}
	return nil
}

func (x *Executor) init() error {
	if x.dyn != nil {
		return nil
	}
	var err error
	if x.dyn, err = dynamic.NewForConfig(x.Config); err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	if x.mapper, err = newMapper(x.Config); err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	if x.CEL == nil {
		if x.CEL, err = celenv.New(); err != nil {
			return fmt.Errorf("workload: %w", err)
		}
	}
	if x.Namespace == "" {
		x.Namespace = "default"
	}
	return nil
}

func (x *Executor) step(ctx context.Context, workload string, i int, s *ir.Step) error {
	x.emit(trace.Entry{Type: trace.Step, Workload: workload, Index: i, Phase: "start", What: string(s.Kind), Src: s.Src.String(),
		Message: startNote(s)})
	x.saw = &seen{}
	err := x.do(ctx, s)
	end := trace.Entry{Type: trace.Step, Workload: workload, Index: i, Phase: "end", What: string(s.Kind), Src: s.Src.String(),
		Seen: x.saw.entry()}
	switch {
	case s.Kind == ir.StepWait && s.Continue:
		end.Message, err = outcome(err)
	case s.Kind == ir.StepSettle:
		end.Message, err = settleOutcome(err)
	case s.Kind == ir.StepPatch && s.Explored != nil && err != nil:
		end.Message, err = refusedOutcome(err)
	}
	if err != nil {
		err = &StepError{Src: s.Src, Kind: s.Kind, Err: err}
		end.Error = err.Error()
	}
	x.emit(end)
	return err
}

func (x *Executor) emit(e trace.Entry) {
	if x.Sink != nil {
		e.Time = time.Now()
		x.Sink(e)
	}
}

func (x *Executor) do(ctx context.Context, s *ir.Step) error {
	switch s.Kind {
	case ir.StepApply:
		return x.apply(ctx, s)
	case ir.StepPatch:
		return x.patch(ctx, s)
	case ir.StepDelete:
		return x.delete(ctx, s.Target)
	case ir.StepScale:
		return x.scale(ctx, s)
	case ir.StepWait:
		return x.wait(ctx, s)
	case ir.StepSettle:
		return x.settle(ctx, s.Timeout.D())
	case ir.StepSleep:
		return sleep(ctx, s.Timeout.D())
	}
	return fmt.Errorf("unknown step kind %q", s.Kind)
}

// apply server-side applies every document of the manifest, with the
// step's sets that fit it (ir.FieldSet.Fits).
func (x *Executor) apply(ctx context.Context, s *ir.Step) error {
	objs, err := decodeManifest([]byte(s.Manifest))
	if s.File != "" {
		objs, err = x.manifestObjects(s.File)
	}
	if err != nil {
		return err
	}
	if err := setFields(objs, s.Set); err != nil {
		return err
	}
	for _, o := range objs {
		if err := x.applyOne(ctx, o); err != nil {
			return err
		}
	}
	return nil
}

// setFields applies each of sets to the documents objs of a manifest
// that it fits (ir.FieldSet.Fits).
func setFields(objs []*unstructured.Unstructured, sets []ir.FieldSet) error {
	docs := make([][]string, len(objs))
	for i, o := range objs {
		docs[i] = slices.Collect(maps.Keys(o.Object))
	}
	for _, set := range sets {
		for i, fits := range set.Fits(docs) {
			if set.Only != nil {
				fits = isRef(objs[i], *set.Only)
			}
			if !fits {
				continue
			}
			if err := setPath(objs[i].Object, set.Path, set.Value); err != nil {
				return fmt.Errorf("set %s: %w", set.Path, err)
			}
		}
	}
	return nil
}

// isRef reports whether o is the object r names; a namespaced object
// without a namespace is in any.
func isRef(o *unstructured.Unstructured, r ir.Ref) bool {
	gvk := o.GroupVersionKind()
	ns := o.GetNamespace()
	return ir.KindName(gvk.Group, gvk.Kind) == r.Kind && o.GetName() == r.Name && (ns == "" || ns == r.Namespace)
}

func (x *Executor) applyOne(ctx context.Context, o *unstructured.Unstructured) error {
	gvk := o.GroupVersionKind()
	gvr, namespaced, err := x.mapper.resourceOf(gvk)
	if err != nil {
		return err
	}
	ri := dynamic.ResourceInterface(x.dyn.Resource(gvr))
	if namespaced {
		if o.GetNamespace() == "" {
			o.SetNamespace(x.Namespace)
		}
		ri = x.dyn.Resource(gvr).Namespace(o.GetNamespace())
		err = x.ownNamespace(ctx, o.GetNamespace())
	} else {
		err = x.mayChange(ctx, ri, gvk.Kind, o.GetName())
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", gvk.Kind, o.GetName(), err)
	}
	x.label(o)
	got, err := ri.Apply(ctx, o.GetName(), o, metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
	if err != nil {
		return fmt.Errorf("%s %s: %w", gvk.Kind, o.GetName(), err)
	}
	x.saw.note(got)
	x.wrote(got)
	return nil
}

// wrote reports an object a step wrote, as the write's answer has it
// (Wrote).
func (x *Executor) wrote(got *unstructured.Unstructured) {
	if x.Wrote == nil || got == nil {
		return
	}
	gvk := got.GroupVersionKind()
	key := trace.Key{Kind: trace.KindName(gvk.Group, gvk.Kind), Namespace: got.GetNamespace(), Name: got.GetName()}
	x.Wrote(key, got.GetResourceVersion(), got.GetLabels())
}

// manifestObjects reads the objects of a manifest file named in the IR.
func (x *Executor) manifestObjects(file string) ([]*unstructured.Unstructured, error) {
	b, err := input.ReadFile(ir.OSPath(x.BaseDir, file), input.ManifestLimit)
	if err != nil {
		return nil, err
	}
	return decodeManifest(b)
}

// decodeManifest splits YAML (or JSON) documents into objects, skipping
// empty documents.
func decodeManifest(src []byte) ([]*unstructured.Unstructured, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(src), 4096)
	var objs []*unstructured.Unstructured
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("manifest: %w", input.JSONError(nil, err))
		}
		m, ok := v.(map[string]any)
		if v != nil && !ok {
			return nil, fmt.Errorf("manifest: document %d: want an object (a mapping)", len(objs)+1)
		}
		if len(m) == 0 {
			continue
		}
		o := &unstructured.Unstructured{Object: m}
		if o.GetKind() == "" || o.GetAPIVersion() == "" || o.GetName() == "" {
			return nil, fmt.Errorf("manifest: document %d needs apiVersion, kind and metadata.name", len(objs)+1)
		}
		objs = append(objs, o)
	}
	if len(objs) == 0 {
		return nil, errors.New("manifest: no objects")
	}
	return objs, nil
}

func (x *Executor) patch(ctx context.Context, s *ir.Step) error {
	ri, err := x.one(ctx, s.Target)
	if err != nil {
		return err
	}
	pt := map[ir.PatchType]types.PatchType{
		ir.PatchMerge: types.MergePatchType, ir.PatchJSON: types.JSONPatchType, ir.PatchStrategic: types.StrategicMergePatchType,
	}[s.PatchType]
	if pt == "" {
		pt = types.MergePatchType
	}
	got, err := ri.Patch(ctx, s.Target.Name, pt, []byte(s.Patch), metav1.PatchOptions{FieldManager: FieldManager})
	x.saw.note(got)
	if err == nil {
		x.wrote(got)
	}
	return err
}

func (x *Executor) scale(ctx context.Context, s *ir.Step) error {
	ri, err := x.one(ctx, s.Target)
	if err != nil {
		return err
	}
	body := fmt.Sprintf(`{"spec":{"replicas":%d}}`, s.Replicas)
	got, err := ri.Patch(ctx, s.Target.Name, types.MergePatchType, []byte(body), metav1.PatchOptions{FieldManager: FieldManager}, "scale")
	if err != nil || x.Wrote == nil {
		return err
	}
	key, err := x.mapper.key(s.Target, x.ns(s.Target))
	if err != nil {
		return err
	}
	x.Wrote(key, got.GetResourceVersion(), nil)
	return nil
}

// one returns the resource interface for a ref that names one object,
// one the run may change.
func (x *Executor) one(ctx context.Context, r *ir.Ref) (dynamic.ResourceInterface, error) {
	if isGlob(r.Namespace) || isGlob(r.Name) {
		return nil, fmt.Errorf("%s: names more than one object (a glob is allowed in delete and wait only)", r)
	}
	ri, namespaced, err := x.resourceOf(r)
	if err != nil {
		return nil, err
	}
	if namespaced {
		err = x.ownNamespace(ctx, x.ns(r))
	} else {
		err = x.mayChange(ctx, ri, r.Kind, r.Name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r, err)
	}
	return ri, nil
}

// resourceOf returns the resource interface for a ref's kind, in its
// namespace if the kind is namespaced.
func (x *Executor) resourceOf(r *ir.Ref) (dynamic.ResourceInterface, bool, error) {
	gvr, namespaced, err := x.mapper.resource(r.Kind)
	if err != nil {
		return nil, false, err
	}
	if namespaced {
		return x.dyn.Resource(gvr).Namespace(x.ns(r)), true, nil
	}
	return x.dyn.Resource(gvr), false, nil
}

func (x *Executor) ns(r *ir.Ref) string {
	if r.Namespace == "" {
		return x.Namespace
	}
	return r.Namespace
}

// delete deletes the object a ref names, or every object a glob matches.
func (x *Executor) delete(ctx context.Context, r *ir.Ref) error {
	if !isGlob(r.Namespace) && !isGlob(r.Name) {
		ri, err := x.one(ctx, r)
		if err != nil {
			return err
		}
		err = ri.Delete(ctx, r.Name, metav1.DeleteOptions{})
		if apierrors.IsNotFound(err) {
			return fmt.Errorf("%s: not found", r)
		}
		return err
	}
	objs, err := x.list(ctx, r)
	if err != nil {
		return err
	}
	for _, o := range objs {
		ri, namespaced, err := x.resourceOf(&ir.Ref{Kind: r.Kind, Namespace: o.GetNamespace(), Name: o.GetName()})
		if err != nil {
			return err
		}
		if !namespaced && x.Owner != nil && !x.owns(&o) {
			continue // the glob matches only what the run created
		}
		if err := ri.Delete(ctx, o.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// list returns the objects a ref (possibly a glob) matches; with an
// Owner, namespaced ones only in the namespaces the run created.
func (x *Executor) list(ctx context.Context, r *ir.Ref) ([]unstructured.Unstructured, error) {
	gvr, namespaced, err := x.mapper.resource(r.Kind)
	if err != nil {
		return nil, err
	}
	var items []unstructured.Unstructured
	if namespaced && x.Owner != nil {
		if items, err = x.listOwned(ctx, gvr, x.defaulted(r)); err != nil {
			return nil, fmt.Errorf("%s: %w", r, err)
		}
	} else {
		ri := dynamic.ResourceInterface(x.dyn.Resource(gvr))
		if namespaced {
			ri = x.dyn.Resource(gvr).Namespace(refNamespace(x.defaulted(r)))
		}
		l, err := ri.List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		items = l.Items
	}
	for i := range items {
		x.saw.note(&items[i])
	}
	return filterRef(items, x.defaulted(r), namespaced), nil
}

func (x *Executor) defaulted(r *ir.Ref) *ir.Ref {
	c := *r
	c.Namespace = x.ns(r)
	return &c
}

func filterRef(items []unstructured.Unstructured, r *ir.Ref, namespaced bool) []unstructured.Unstructured {
	var out []unstructured.Unstructured
	for _, o := range items {
		if namespaced && !matches(r.Namespace, o.GetNamespace()) {
			continue
		}
		if matches(r.Name, o.GetName()) {
			out = append(out, o)
		}
	}
	return out
}

func (x *Executor) settle(ctx context.Context, window time.Duration) error {
	if x.Settle == nil {
		return sleep(ctx, window)
	}
	limit := max(cmp.Or(x.SettleMax, ir.DefaultSettleMax), 2*window)
	bctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	if err := x.Settle(bctx, window); err != nil {
		if ctx.Err() != nil || bctx.Err() == nil {
			return err
		}
		return timedOut(bctx, trace.NotQuiet(window, limit))
	}
	return nil
}

// sleep pauses for d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
