package proxy

import (
	"context"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// TestGoneRelists ends a client-go reflector's watch with the Gone
// verdict right after it delivers b@2: an ERROR event, 410 Expired, "too
// old resource version". The reflector must list again, from b@2's
// resourceVersion, and take that list into its store: pod c, which no
// watch event carried, appears there.
func TestGoneRelists(t *testing.T) {
	a := &watchAPI{events: make(chan string, 10), lists: map[string]string{
		"0": podList("1", pod("a", "1")),
		"2": podList("3", pod("a", "1"), pod("b", "2"), pod("c", "3")),
	}}
	f := newFakeAPI(t, a.handle)
	gone := Hooks{Filter: func(_ *Stream, ev *Event) Verdict {
		if ev.Key.Name == "b" {
			return Gone
		}
		return Deliver
	}}
	p := startProxy(t, f, gone, &memSink{})
	store := runReflector(t, p)
	waitFor(t, "the reflector's first list and watch", func() bool { return has(store, "a") && watches(f) == 1 })
	a.events <- watchEvent("ADDED", "b", "2")
	waitFor(t, "pod c in the reflector's store (a list after the 410)", func() bool { return has(store, "c") })
	var lists []string
	for _, s := range f.seen() {
		if !strings.Contains(s.Query, "watch=") {
			lists = append(lists, s.Query)
		}
	}
	if len(lists) != 2 || !strings.Contains(lists[1], "resourceVersion=2") {
		t.Errorf("lists %q, want the first and one from resourceVersion 2", lists)
	}
}

// noWatchList is a ListWatch that tells a reflector to list and watch,
// not to open a watch list (the fake API serves no watch list).
type noWatchList struct{ *cache.ListWatch }

func (noWatchList) IsWatchListSemanticsUnSupported() bool { return true }

// runReflector runs a client-go reflector of the pods in default through
// p until the test ends, and returns its store.
func runReflector(t *testing.T, p *Proxy) cache.Store {
	t.Helper()
	cs, err := kubernetes.NewForConfig(p.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	lw := cache.NewListWatchFromClient(cs.CoreV1().RESTClient(), "pods", "default", fields.Everything())
	store := cache.NewStore(cache.MetaNamespaceKeyFunc)
	r := cache.NewReflector(noWatchList{lw}, &corev1.Pod{}, store, 0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.RunWithContext(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return store
}

func podList(rv string, items ...string) string {
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":%q},"items":[%s]}`, rv, strings.Join(items, ","))
}

func has(store cache.Store, name string) bool {
	_, ok, _ := store.GetByKey("default/" + name)
	return ok
}

// watches counts the watch requests the fake API has seen.
func watches(f *fakeAPI) int {
	n := 0
	for _, s := range f.seen() {
		if strings.Contains(s.Query, "watch=") {
			n++
		}
	}
	return n
}
