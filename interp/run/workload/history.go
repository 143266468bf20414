package workload

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// History watches every resource type of the cluster, including custom
// resources whose CRDs appear while it runs, and sends each change to Sink
// as a History entry. Events are left out: they are a log, not state.
type History struct {
	// Config is the admin client configuration.
	Config *rest.Config
	// Sink receives every change, in the order History sees them.
	Sink func(trace.Entry)
	// Owner, on a cluster sieve does not own, leaves out what is not the
	// run's: the namespaces it did not create, the objects in them, and
	// cluster-scoped objects another run labelled. Nil: everything.
	Owner *Owner

	mu       sync.Mutex
	dyn      dynamic.Interface
	factory  dynamicinformer.DynamicSharedInformerFactory
	watching map[schema.GroupResource]bool
	synced   []cache.InformerSynced
	ctx      context.Context
	// owned caches, with an Owner, whether the run created a namespace.
	ownedMu sync.Mutex
	owned   map[string]bool
}

// Start begins watching and returns once the initial lists are recorded.
// Watching stops when ctx ends.
func (h *History) Start(ctx context.Context) error {
	dyn, err := dynamic.NewForConfig(h.Config)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	dc, err := discovery.NewDiscoveryClientForConfig(h.Config)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	h.ctx, h.dyn = ctx, dyn
	h.factory = dynamicinformer.NewDynamicSharedInformerFactory(dyn, 0)
	h.watching = map[schema.GroupResource]bool{}
	h.owned = map[string]bool{}
	lists, err := dc.ServerPreferredResources()
	if err != nil && len(lists) == 0 {
		return fmt.Errorf("history: discovery: %w", err)
	}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		if !trace.BuiltinGroup(gv.Group) {
			// Discovery may still list the resources of a CRD deleted a
			// moment ago (a reset), and a watch on those would never sync:
			// custom resources are watched once their CRD is established.
			continue
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || !sets.New[string](r.Verbs...).HasAll("list", "watch") {
				continue
			}
			if err := h.watch(gv.WithResource(r.Name), r.Kind); err != nil {
				return err
			}
		}
	}
	return h.sync()
}

// watch starts an informer for one resource unless one runs already.
func (h *History) watch(gvr schema.GroupVersionResource, kind string) error {
	k := trace.KindName(gvr.Group, kind)
	h.mu.Lock()
	defer h.mu.Unlock()
	if ir.Unrecorded(k) || h.watching[gvr.GroupResource()] { // events are not cluster state worth comparing
		return nil
	}
	h.watching[gvr.GroupResource()] = true
	inf := h.factory.ForResource(gvr).Informer()
	_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(o any) { h.record(k, "ADDED", o) },
		UpdateFunc: func(old, o any) { h.update(k, old, o) },
		DeleteFunc: func(o any) { h.record(k, "DELETED", o) },
	})
	if err != nil {
		return fmt.Errorf("history: watch %s: %w", gvr.GroupResource(), err)
	}
	if gvr.Group == "apiextensions.k8s.io" && gvr.Resource == "customresourcedefinitions" {
		_, err = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    h.crd,
			UpdateFunc: func(_, o any) { h.crd(o) },
		})
		if err != nil {
			return fmt.Errorf("history: watch CRDs: %w", err)
		}
	}
	h.synced = append(h.synced, inf.HasSynced)
	h.factory.Start(h.ctx.Done())
	return nil
}

func (h *History) sync() error {
	h.mu.Lock()
	synced := append([]cache.InformerSynced(nil), h.synced...)
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(h.ctx, time.Minute)
	defer cancel()
	if !cache.WaitForCacheSync(ctx.Done(), synced...) {
		return fmt.Errorf("history: initial lists did not complete")
	}
	return nil
}

// WatchCRDs makes sure that the custom resources of every established CRD
// are watched and their initial lists recorded, and returns then. The CRD
// watch starts those watches on its own, but some time after a CRD is
// established; a workload that starts before would have its first steps
// missing from the history. Call it after installing CRDs.
func (h *History) WatchCRDs(ctx context.Context) error {
	crds, err := h.dyn.Resource(crdsGVR).List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("history: list CRDs: %w", err)
	}
	for i := range crds.Items {
		h.crd(&crds.Items[i])
	}
	return h.sync()
}

// crd starts watching a custom resource once its CRD is established.
func (h *History) crd(o any) {
	u, ok := o.(*unstructured.Unstructured)
	if !ok || !established(u) {
		return
	}
	group, _, _ := unstructured.NestedString(u.Object, "spec", "group")
	plural, _, _ := unstructured.NestedString(u.Object, "spec", "names", "plural")
	kind, _, _ := unstructured.NestedString(u.Object, "spec", "names", "kind")
	version := storageVersion(u)
	if group == "" || plural == "" || version == "" {
		return
	}
	// An error here means the watch could not be registered; the entries
	// it would have produced are missing and the oracle reports the
	// objects as absent, which is visible.
	_ = h.watch(schema.GroupVersionResource{Group: group, Version: version, Resource: plural}, kind)
}

func established(u *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

func storageVersion(u *unstructured.Unstructured) string {
	versions, _, _ := unstructured.NestedSlice(u.Object, "spec", "versions")
	for _, v := range versions {
		m, _ := v.(map[string]any)
		if m["storage"] == true {
			name, _ := m["name"].(string)
			return name
		}
	}
	return ""
}

func (h *History) update(kind string, old, o any) {
	ou, ok1 := old.(*unstructured.Unstructured)
	nu, ok2 := o.(*unstructured.Unstructured)
	if ok1 && ok2 && ou.GetResourceVersion() == nu.GetResourceVersion() {
		return // a relist, not a change
	}
	h.record(kind, "MODIFIED", o)
}

func (h *History) record(kind, event string, o any) {
	if d, ok := o.(cache.DeletedFinalStateUnknown); ok {
		o = d.Obj
	}
	u, ok := o.(*unstructured.Unstructured)
	if !ok {
		return
	}
	if unrecorded(kind, u) || h.foreign(kind, u) {
		return
	}
	b, err := json.Marshal(u.Object)
	if err != nil {
		return
	}
	h.Sink(trace.Entry{
		Time:            time.Now(),
		Type:            trace.History,
		Key:             &trace.Key{Kind: kind, Namespace: u.GetNamespace(), Name: u.GetName()},
		Event:           event,
		ResourceVersion: u.GetResourceVersion(),
		Object:          b,
	})
}
