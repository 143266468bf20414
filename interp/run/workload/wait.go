package workload

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/ir"
)

// wait watches the target's objects and returns once the condition holds.
// Conditions that look at other objects (CEL) are also re-evaluated every
// half second.
func (x *Executor) wait(ctx context.Context, s *ir.Step) error {
	timeout := s.Timeout.D()
	if timeout <= 0 {
		timeout = DefaultWaitTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if s.Target == nil {
		return x.waitUntil(ctx, s.Until, timeout)
	}
	cond, err := x.condition(s.Until)
	if err != nil {
		return err
	}
	store, changed, namespaced, err := x.watch(ctx, s.Target)
	if err != nil {
		return err
	}
	target := x.defaulted(s.Target)
	if !namespaced {
		target.Namespace = ""
	}
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	progress := "no object seen"
	for {
		ok, p, err := x.holds(ctx, cond, store, target, namespaced)
		switch {
		case err != nil && ctx.Err() == nil:
			return err
		case err == nil && ok:
			return nil
		case err == nil:
			progress = p
		}
		select {
		case <-changed:
		case <-tick.C:
		case <-ctx.Done():
			return timedOut(ctx, fmt.Sprintf("%s %s: timed out after %s (%s)", s.Target, describe(s.Until), timeout, progress))
		}
	}
}

// holds evaluates cond on the objects of store that target matches (with
// an Owner, in the namespaces the run created).
func (x *Executor) holds(ctx context.Context, cond condFunc, store cache.Store, target *ir.Ref, namespaced bool) (bool, string, error) {
	objs := filterStore(store, target)
	if namespaced && isGlob(target.Namespace) {
		var err error
		if objs, err = x.keepOwned(ctx, objs); err != nil {
			return false, "", err
		}
	}
	return cond(ctx, objs)
}

// waitUntil waits for a CEL condition on the whole cluster (a wait step
// with no target), evaluating it every quarter second.
func (x *Executor) waitUntil(ctx context.Context, c *ir.WaitCond, timeout time.Duration) error {
	if c == nil || c.Kind != ir.WaitCEL {
		return fmt.Errorf("wait without a target needs a CEL condition")
	}
	prg, err := x.CEL.Compile(celenv.Invariant, c.Expr)
	if err != nil {
		return fmt.Errorf("cel: %w", err)
	}
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	progress := "expression false"
	for {
		ok, err := prg.Eval(ctx, &liveWorld{ctx: ctx, x: x}, nil)
		switch {
		case celenv.IsMissing(err):
			progress = "expression meets a missing field: " + strings.TrimPrefix(err.Error(), "cel: ")
		case err != nil && ctx.Err() == nil:
			return err
		case ok:
			return nil
		default:
			progress = "expression false"
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return timedOut(ctx, fmt.Sprintf("until %s: timed out after %s (%s)", c.Expr, timeout, progress))
		}
	}
}

// watch starts an informer on the target's resource and returns its store,
// a channel that receives a value after each change, and whether the
// resource is namespaced.
func (x *Executor) watch(ctx context.Context, r *ir.Ref) (cache.Store, <-chan struct{}, bool, error) {
	gvr, namespaced, err := x.mapper.resource(r.Kind)
	if err != nil {
		return nil, nil, false, err
	}
	ns := ""
	if namespaced {
		ns = refNamespace(x.defaulted(r))
	}
	if ns != "" {
		if err := x.ownNamespace(ctx, ns); err != nil {
			return nil, nil, false, fmt.Errorf("%s: %w", r, err)
		}
	}
	f := dynamicinformer.NewFilteredDynamicSharedInformerFactory(x.dyn, 0, ns, nil)
	inf := f.ForResource(gvr).Informer()
	saw := x.saw
	if err := inf.SetTransform(func(o any) (any, error) { saw.note(o); return o, nil }); err != nil {
		return nil, nil, false, err
	}
	changed := make(chan struct{}, 1)
	poke := func(any) {
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	_, err = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: poke, DeleteFunc: poke, UpdateFunc: func(_, o any) { poke(o) },
	})
	if err != nil {
		return nil, nil, false, err
	}
	f.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		return nil, nil, false, fmt.Errorf("%s: could not list %s", r, gvr.Resource)
	}
	return inf.GetStore(), changed, namespaced, nil
}

func filterStore(store cache.Store, r *ir.Ref) []map[string]any {
	var out []map[string]any
	for _, o := range store.List() {
		u, ok := o.(*unstructured.Unstructured)
		if !ok {
			continue
		}
		if (r.Namespace == "" || matches(r.Namespace, u.GetNamespace())) && matches(r.Name, u.GetName()) {
			out = append(out, u.Object)
		}
	}
	return out
}

// condFunc says whether a wait condition holds for the matching objects,
// and if not, how far it got.
type condFunc func(ctx context.Context, objs []map[string]any) (bool, string, error)

func (x *Executor) condition(c *ir.WaitCond) (condFunc, error) {
	if c == nil {
		return nil, fmt.Errorf("wait without a condition")
	}
	switch c.Kind {
	case ir.WaitExists:
		return func(_ context.Context, objs []map[string]any) (bool, string, error) {
			return len(objs) > 0, "no object seen", nil
		}, nil
	case ir.WaitGone:
		return func(_ context.Context, objs []map[string]any) (bool, string, error) {
			return len(objs) == 0, fmt.Sprintf("%d still present", len(objs)), nil
		}, nil
	case ir.WaitField:
		return fieldCond(c), nil
	case ir.WaitReady:
		return readyCond(c.Count), nil
	case ir.WaitCEL:
		prg, err := x.CEL.Compile(celenv.Wait, c.Expr)
		if err != nil {
			return nil, fmt.Errorf("cel: %w", err)
		}
		return x.celCond(prg), nil
	}
	return nil, fmt.Errorf("unknown wait condition %q", c.Kind)
}

func fieldCond(c *ir.WaitCond) condFunc {
	want, _ := json.Marshal(c.Value)
	return func(_ context.Context, objs []map[string]any) (bool, string, error) {
		if len(objs) == 0 {
			return false, "no object seen", nil
		}
		for _, o := range objs {
			v, found := getPath(o, c.Path)
			if c.Exists {
				if !found {
					return false, fmt.Sprintf("%s of %s is not set", c.Path, nameOf(o)), nil
				}
				continue
			}
			got, _ := json.Marshal(v)
			if string(got) != string(want) {
				return false, fmt.Sprintf("%s of %s is %s", c.Path, nameOf(o), got), nil
			}
		}
		return true, "", nil
	}
}

func readyCond(count int) condFunc {
	return func(_ context.Context, objs []map[string]any) (bool, string, error) {
		n := 0
		for _, o := range objs {
			if isReady(o) {
				n++
			}
		}
		progress := fmt.Sprintf("%d of %d ready", n, len(objs))
		if count > 0 {
			return n >= count, fmt.Sprintf("%d ready, want %d", n, count), nil
		}
		return len(objs) > 0 && n == len(objs), progress, nil
	}
}

func (x *Executor) celCond(prg *celenv.Program) condFunc {
	return func(ctx context.Context, objs []map[string]any) (bool, string, error) {
		if len(objs) == 0 {
			return false, "no object seen", nil
		}
		w := &liveWorld{ctx: ctx, x: x}
		for _, o := range objs {
			ok, err := prg.Eval(ctx, w, o)
			if celenv.IsMissing(err) {
				return false, fmt.Sprintf("expression meets a missing field of %s: %s", nameOf(o), strings.TrimPrefix(err.Error(), "cel: ")), nil
			}
			if err != nil {
				return false, "", err
			}
			if !ok {
				return false, "expression false for " + nameOf(o), nil
			}
		}
		return true, "", nil
	}
}

// liveWorld answers CEL's objects() and object() from the API server.
type liveWorld struct {
	ctx context.Context
	x   *Executor
}

func (w *liveWorld) Objects(kind, namespace string) []map[string]any {
	ns := namespace
	if ns == "" {
		ns = "*"
	}
	items, err := w.x.list(w.ctx, &ir.Ref{Kind: kind, Namespace: ns, Name: "*"})
	if err != nil {
		return nil
	}
	out := make([]map[string]any, len(items))
	for i := range items {
		out[i] = items[i].Object
	}
	return out
}

func (w *liveWorld) Object(kind, namespace, name string) map[string]any {
	items, err := w.x.list(w.ctx, &ir.Ref{Kind: kind, Namespace: namespace, Name: name})
	if err != nil || len(items) == 0 {
		return nil
	}
	return items[0].Object
}

// isReady says whether an object is ready:
//
//   - a PVC or PV: bound;
//   - a StatefulSet, ReplicaSet, Deployment or ReplicationController: all
//     replicas ready at the current generation;
//   - a DaemonSet: a ready pod on every node it schedules to, at the
//     current generation;
//   - a Job: its Complete condition; a Pod: its Ready one; a CRD: its
//     Established one;
//   - otherwise: a Ready or Available condition, or, with no conditions,
//     all replicas ready when the status counts them.
//
// A custom resource is ready only through such a condition or replica
// count, since its controller may not have written any status yet. Other
// built-in objects are ready when they exist. grammar.md documents this
// per kind.
func isReady(o map[string]any) bool {
	kind, _ := o["kind"].(string)
	switch kind {
	case "PersistentVolumeClaim", "PersistentVolume":
		phase, _ := getPath(o, "status.phase")
		return phase == "Bound"
	case "StatefulSet", "ReplicaSet", "Deployment", "ReplicationController":
		return replicasReady(o)
	case "DaemonSet":
		return daemonsReady(o)
	case "Job":
		return hasCondition(o, "Complete")
	case "Pod": // not before the kubelet writes its conditions
		return hasCondition(o, "Ready")
	case "CustomResourceDefinition":
		return hasCondition(o, "Established")
	}
	if conds, ok := getPath(o, "status.conditions"); ok {
		list, _ := conds.([]any)
		for _, c := range list {
			m, _ := c.(map[string]any)
			if readyTypes[m["type"]] && m["status"] == "True" {
				return true
			}
		}
		return false
	}
	if _, ok := getPath(o, "status.readyReplicas"); ok {
		return replicasReady(o)
	}
	return !isCustom(o)
}

// isCustom reports whether an object's API group is not one of
// Kubernetes' own (see trace.KindName).
func isCustom(o map[string]any) bool {
	apiVersion, _ := o["apiVersion"].(string)
	group, _, found := strings.Cut(apiVersion, "/")
	return found && !trace.BuiltinGroup(group)
}

// readyTypes are the condition types that mean an object is ready.
var readyTypes = map[any]bool{"Ready": true, "Available": true}

// hasCondition reports whether the object's status has the condition
// typ with status True.
func hasCondition(o map[string]any, typ string) bool {
	conds, _ := getPath(o, "status.conditions")
	list, _ := conds.([]any)
	for _, c := range list {
		m, _ := c.(map[string]any)
		if m["type"] == typ && m["status"] == "True" {
			return true
		}
	}
	return false
}

// daemonsReady says whether a DaemonSet's controller has seen its current
// generation and a ready pod runs on every node it schedules to.
func daemonsReady(o map[string]any) bool {
	want, _ := getPath(o, "status.desiredNumberScheduled")
	ready, _ := getPath(o, "status.numberReady")
	gen, _ := getPath(o, "metadata.generation")
	observed, _ := getPath(o, "status.observedGeneration")
	return toInt(ready) >= toInt(want) && toInt(observed) >= max(toInt(gen), 1)
}

func replicasReady(o map[string]any) bool {
	want := int64(1)
	if v, ok := getPath(o, "spec.replicas"); ok {
		want = toInt(v)
	}
	ready, _ := getPath(o, "status.readyReplicas")
	gen, _ := getPath(o, "metadata.generation")
	observed, _ := getPath(o, "status.observedGeneration")
	return toInt(ready) >= want && toInt(observed) >= toInt(gen)
}

func toInt(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case float64:
		return int64(n)
	case int:
		return int64(n)
	}
	return 0
}

func nameOf(o map[string]any) string {
	u := unstructured.Unstructured{Object: o}
	gvk := u.GroupVersionKind()
	return trace.Key{Kind: trace.KindName(gvk.Group, gvk.Kind), Namespace: u.GetNamespace(), Name: u.GetName()}.String()
}

func describe(c *ir.WaitCond) string {
	switch c.Kind {
	case ir.WaitField:
		if c.Exists {
			return c.Path + " exists"
		}
		v, _ := json.Marshal(c.Value)
		return fmt.Sprintf("%s == %s", c.Path, v)
	case ir.WaitCEL:
		return "expression true"
	case ir.WaitReady:
		if c.Count > 0 {
			return fmt.Sprintf("%d ready", c.Count)
		}
		return "ready"
	}
	return string(c.Kind)
}
