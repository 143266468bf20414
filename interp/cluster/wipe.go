package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/interp/internal/crduse"
)

// scope says what a wipe deletes.
type scope struct {
	// selector picks the namespaces and CRDs to delete ("" for all
	// non-system ones).
	selector string
	// defaultNS also empties the default namespace.
	defaultNS bool
	// run, on a cluster sieve does not own, is the run whose CRDs are let
	// go (crduse.Release) rather than deleted: other runs may use them.
	run string
}

// wipeAll is for clusters sieve created: everything users can create goes.
var wipeAll = scope{defaultNS: true}

// systemNamespaces are never deleted.
var systemNamespaces = map[string]bool{
	"default": true, "kube-system": true, "kube-public": true, "kube-node-lease": true, "local-path-storage": true,
}

// keepInDefault names the objects the cluster itself keeps in the default
// namespace, by resource.
var keepInDefault = map[string]string{
	"services":        "kubernetes",
	"endpoints":       "kubernetes",
	"endpointslices":  "kubernetes",
	"serviceaccounts": "default",
	"configmaps":      "kube-root-ca.crt",
}

var (
	namespacesGVR = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	crdsGVR       = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
)

// wipe deletes what s selects and waits until it is gone.
func wipe(ctx context.Context, cfg *rest.Config, s scope) error {
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	var errs []error
	if s.defaultNS {
		errs = append(errs, emptyDefault(ctx, cfg, dyn))
	}
	errs = append(errs, deleteAll(ctx, dyn, namespacesGVR, s.selector, systemNamespaces))
	if s.selector != "" {
		errs = append(errs, deleteLabelled(ctx, cfg, dyn, s.selector))
	}
	if s.run != "" {
		errs = append(errs, releaseCRDs(ctx, dyn, s.run))
	} else {
		errs = append(errs, deleteAll(ctx, dyn, crdsGVR, s.selector, nil))
	}
	return errors.Join(errs...)
}

// releaseCRDs ends run's use of the CRDs it created or joined, and waits
// until those it was the last user of are gone.
func releaseCRDs(ctx context.Context, dyn dynamic.Interface, run string) error {
	ri := dyn.Resource(crdsGVR)
	names, err := crduse.Release(ctx, ri, run)
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	return waitGone(ctx, allGone(ri, names), crdsGVR.Resource)
}

// deleteLabelled deletes the cluster-scoped objects of every built-in kind
// but namespaces and CRDs that match selector (those a run's workload
// applied), skipping the kinds sieve may not list.
func deleteLabelled(ctx context.Context, cfg *rest.Config, dyn dynamic.Interface, selector string) error {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	lists, err := dc.ServerPreferredResources()
	if err != nil && len(lists) == 0 {
		return fmt.Errorf("reset: discovery: %w", err)
	}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range l.APIResources {
			gvr := gv.WithResource(r.Name)
			if r.Namespaced || gvr.GroupResource() == namespacesGVR.GroupResource() || gvr.GroupResource() == crdsGVR.GroupResource() ||
				!sets.New[string](r.Verbs...).HasAll("list", "delete") {
				continue
			}
			err := deleteAll(ctx, dyn, gvr, selector, nil)
			if err != nil && !apierrors.IsForbidden(err) && !apierrors.IsNotFound(err) && !apierrors.IsMethodNotSupported(err) {
				return err
			}
		}
	}
	return nil
}

// deleteAll deletes the objects of a cluster-scoped resource that match
// selector, except the names in keep, and waits until they are gone.
func deleteAll(ctx context.Context, dyn dynamic.Interface, gvr schema.GroupVersionResource, selector string, keep map[string]bool) error {
	ri := dyn.Resource(gvr)
	list, err := ri.List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return fmt.Errorf("reset: list %s: %w", gvr.Resource, err)
	}
	var names []string
	for _, o := range list.Items {
		if keep[o.GetName()] {
			continue
		}
		err := ri.Delete(ctx, o.GetName(), metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("reset: delete %s %s: %w", gvr.Resource, o.GetName(), err)
		}
		names = append(names, o.GetName())
	}
	return waitGone(ctx, allGone(ri, names), gvr.Resource)
}

// emptyDefault deletes every object in the default namespace except the
// ones the cluster keeps there.
func emptyDefault(ctx context.Context, cfg *rest.Config, dyn dynamic.Interface) error {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	lists, err := dc.ServerPreferredNamespacedResources()
	if err != nil && len(lists) == 0 {
		return fmt.Errorf("reset: discovery: %w", err)
	}
	grace := int64(0)
	var gvrs []schema.GroupVersionResource
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range l.APIResources {
			if !sets.New[string](r.Verbs...).HasAll("list", "deletecollection") {
				continue
			}
			gvr := gv.WithResource(r.Name)
			opts := metav1.ListOptions{}
			if keep, ok := keepInDefault[r.Name]; ok {
				opts.FieldSelector = "metadata.name!=" + keep
			}
			err := dyn.Resource(gvr).Namespace("default").DeleteCollection(ctx, metav1.DeleteOptions{GracePeriodSeconds: &grace}, opts)
			if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsMethodNotSupported(err) {
				return fmt.Errorf("reset: delete %s in default: %w", r.Name, err)
			}
			gvrs = append(gvrs, gvr)
		}
	}
	return waitGone(ctx, func(ctx context.Context) (bool, error) {
		for _, gvr := range gvrs {
			opts := metav1.ListOptions{Limit: 1}
			if keep, ok := keepInDefault[gvr.Resource]; ok {
				opts.FieldSelector = "metadata.name!=" + keep
			}
			l, err := dyn.Resource(gvr).Namespace("default").List(ctx, opts)
			if err == nil && len(l.Items) > 0 && gvr.Resource != "events" {
				return false, nil
			}
		}
		return true, nil
	}, "objects in namespace default")
}

// allGone is true once none of the objects names of ri exists.
func allGone(ri dynamic.ResourceInterface, names []string) wait.ConditionWithContextFunc {
	return func(ctx context.Context) (bool, error) {
		for _, n := range names {
			_, err := ri.Get(ctx, n, metav1.GetOptions{})
			if err == nil {
				return false, nil
			}
			if !apierrors.IsNotFound(err) {
				return false, err
			}
		}
		return true, nil
	}
}

func waitGone(ctx context.Context, gone wait.ConditionWithContextFunc, what string) error {
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 2*time.Minute, true, gone)
	if err != nil {
		return fmt.Errorf("reset: waiting for %s to be deleted: %w", what, err)
	}
	return nil
}
