package proxy

import (
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
)

// Mapper maps a resource to its kind. The proxy needs only this part of
// meta.RESTMapper, so tests can give a fixed table.
type Mapper interface {
	KindFor(resource schema.GroupVersionResource) (schema.GroupVersionKind, error)
}

// kinds caches resource-to-kind answers and refreshes discovery when a
// resource is unknown, so CRDs created during the run are found. Misses
// that arrive together share one refresh.
type kinds struct {
	m       Mapper
	reset   func()
	mu      sync.RWMutex
	cache   map[schema.GroupVersionResource]schema.GroupVersionKind
	rstMu   sync.Mutex
	lastRst time.Time
}

func newKinds(m Mapper, reset func()) *kinds {
	return &kinds{m: m, reset: reset, cache: map[schema.GroupVersionResource]schema.GroupVersionKind{}}
}

// discoveryMapper returns a mapper backed by the upstream's discovery and
// a function that drops its cache.
func discoveryMapper(cfg *rest.Config) (Mapper, func(), error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("proxy: discovery: %w", err)
	}
	m := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
	return m, m.Reset, nil
}

// kindFor returns the kind of a resource, or false when discovery does not
// know it even after a refresh.
func (k *kinds) kindFor(gvr schema.GroupVersionResource) (schema.GroupVersionKind, bool) {
	k.mu.RLock()
	gvk, ok := k.cache[gvr]
	k.mu.RUnlock()
	if ok {
		return gvk, true
	}
	started := time.Now()
	gvk, err := k.m.KindFor(gvr)
	if err != nil && k.refresh(started) {
		gvk, err = k.m.KindFor(gvr)
	}
	if err != nil {
		return schema.GroupVersionKind{}, false
	}
	k.mu.Lock()
	k.cache[gvr] = gvk
	k.mu.Unlock()
	return gvk, true
}

// learn records a kind the proxy saw in an object of the resource (for a
// resource discovery does not list yet).
func (k *kinds) learn(gvr schema.GroupVersionResource, kind string) {
	k.mu.Lock()
	k.cache[gvr] = gvr.GroupVersion().WithKind(kind)
	k.mu.Unlock()
}

// refresh drops the discovery cache unless a refresh began after the
// lookup that missed (started); it reports whether a retry may help.
func (k *kinds) refresh(started time.Time) bool {
	if k.reset == nil {
		return false
	}
	k.rstMu.Lock()
	defer k.rstMu.Unlock()
	if k.lastRst.Before(started) {
		k.lastRst = time.Now()
		k.reset()
	}
	return true
}

var _ Mapper = meta.RESTMapper(nil)
