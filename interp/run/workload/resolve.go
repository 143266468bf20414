package workload

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// mapper resolves the kinds written in specs ("statefulset",
// "datastore.example.com") to API resources, refreshing discovery when a
// kind is unknown (a CRD installed since).
type mapper struct {
	m *restmapper.DeferredDiscoveryRESTMapper
}

func newMapper(cfg *rest.Config) (*mapper, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &mapper{m: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))}, nil
}

// resource returns the resource for a spec kind and whether it is namespaced.
func (m *mapper) resource(kind string) (schema.GroupVersionResource, bool, error) {
	gvr, err := m.lookup(kind)
	if err != nil {
		m.m.Reset()
		gvr, err = m.lookup(kind)
	}
	if err != nil {
		return gvr, false, fmt.Errorf("unknown kind %q (hint: is its CRD installed?)", kind)
	}
	gvk, err := m.m.KindFor(gvr)
	if err != nil {
		return gvr, false, err
	}
	mapping, err := m.m.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return gvr, false, err
	}
	return gvr, mapping.Scope.Name() == meta.RESTScopeNameNamespace, nil
}

// key returns the trace key of the object a ref names (one object, its
// namespace defaulted to ns).
func (m *mapper) key(r *ir.Ref, ns string) (trace.Key, error) {
	gvr, namespaced, err := m.resource(r.Kind)
	if err != nil {
		return trace.Key{}, err
	}
	gvk, err := m.m.KindFor(gvr)
	if err != nil {
		return trace.Key{}, err
	}
	k := trace.Key{Kind: trace.KindName(gvk.Group, gvk.Kind), Name: r.Name}
	if namespaced {
		k.Namespace = ns
	}
	return k, nil
}

// resourceOf returns the resource of a manifest's object at the version
// its apiVersion names, and whether it is namespaced: a CRD written as
// apiextensions.k8s.io/v1beta1 goes to the v1beta1 endpoint, not to the
// group's preferred version, which would refuse its body.
func (m *mapper) resourceOf(gvk schema.GroupVersionKind) (schema.GroupVersionResource, bool, error) {
	mapping, err := m.m.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		m.m.Reset()
		mapping, err = m.m.RESTMapping(gvk.GroupKind(), gvk.Version)
	}
	if err != nil {
		return schema.GroupVersionResource{}, false, fmt.Errorf("unknown kind %s in %s (hint: is its CRD installed, and does the cluster serve that version?)", gvk.Kind, gvk.GroupVersion())
	}
	return mapping.Resource, mapping.Scope.Name() == meta.RESTScopeNameNamespace, nil
}

func (m *mapper) lookup(kind string) (schema.GroupVersionResource, error) {
	name, group, _ := strings.Cut(strings.ToLower(kind), ".")
	want := schema.GroupVersionResource{Group: group, Resource: name}
	gvr, err := m.m.ResourceFor(want)
	var amb *meta.AmbiguousResourceError
	if errors.As(err, &amb) && len(amb.MatchingResources) > 0 {
		// "event" is both core and events.k8s.io: take the preferred one.
		all, err := m.m.ResourcesFor(want)
		if err == nil && len(all) > 0 {
			return all[0], nil
		}
	}
	return gvr, err
}

// gvkFor returns the kind of a resource, for history keys.
func (m *mapper) gvkFor(gvr schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	return m.m.KindFor(gvr)
}

// isGlob reports whether a name or namespace pattern has glob characters.
func isGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// matches reports whether name matches the glob pattern (an invalid pattern
// matches nothing; the checker rejects those).
func matches(pattern, name string) bool {
	ok, err := path.Match(pattern, name)
	return err == nil && ok
}

// refNamespace is the namespace to list for a ref: "" (all) for a glob.
func refNamespace(r *ir.Ref) string {
	if isGlob(r.Namespace) {
		return ""
	}
	return r.Namespace
}
