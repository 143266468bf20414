package proxy

import (
	"testing"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// TestShown: a version the workload wrote is not shown while the watch
// that is sent its object has not been passed it, however long that takes
// (the event reaches the proxy late under load); an event of another
// object before it does not count, the event itself does. Versions the
// watch's start already had, and objects the watch is not sent (another
// namespace or kind, a label selector that does not match, a field
// selector on another name), need nothing.
func TestShown(t *testing.T) {
	a := &watchAPI{events: make(chan string, 10)}
	p := startProxy(t, newFakeAPI(t, a.handle), Hooks{}, nil)
	body := openWatch(t, p, "&resourceVersion=5&labelSelector=app%3Dweb")
	waitFor(t, "the watch to open", func() bool { return len(p.Streams()) == 1 })
	web := map[string]string{"app": "web"}
	pod := func(ns, name, rv string, labels map[string]string) Version {
		return Version{Key: trace.Key{Kind: "pod", Namespace: ns, Name: name}, ResourceVersion: rv, Labels: labels}
	}
	for _, tc := range []struct {
		what string
		v    Version
	}{
		{"a version the watch started from", pod("default", "a", "5", web)},
		{"another namespace", pod("other", "a", "7", web)},
		{"another kind", Version{Key: trace.Key{Kind: "configmap", Namespace: "default", Name: "a"}, ResourceVersion: "7", Labels: web}},
		{"labels the selector does not match", pod("default", "a", "7", map[string]string{"app": "db"})},
		{"a version that is not a revision", pod("default", "a", "x", web)},
	} {
		if !p.Shown(tc.v) {
			t.Errorf("%s: not shown, want shown", tc.what)
		}
	}
	v := pod("default", "a", "7", web)
	if p.Shown(v) {
		t.Fatal("shown before its event reached the proxy")
	}
	a.events <- watchEvent("MODIFIED", "b", "6")
	readEvents(t, body, 1)
	if p.Shown(v) {
		t.Error("shown after an earlier event of another object")
	}
	a.events <- watchEvent("MODIFIED", "a", "7")
	readEvents(t, body, 1)
	waitFor(t, "the version to be shown once its event is delivered", func() bool { return p.Shown(v) })

}

// TestShownByName: a watch of one object by name (a metadata.name field
// selector) is sent that object only.
func TestShownByName(t *testing.T) {
	a := &watchAPI{events: make(chan string, 10)}
	p := startProxy(t, newFakeAPI(t, a.handle), Hooks{}, nil)
	body := openWatch(t, p, "&resourceVersion=7&fieldSelector=metadata.name%3Db")
	waitFor(t, "the watch to open", func() bool { return len(p.Streams()) == 1 })
	b := Version{Key: trace.Key{Kind: "pod", Namespace: "default", Name: "b"}, ResourceVersion: "8"}
	if !p.Shown(Version{Key: trace.Key{Kind: "pod", Namespace: "default", Name: "a"}, ResourceVersion: "8"}) {
		t.Error("a watch of b holds a version of a")
	}
	if p.Shown(b) {
		t.Error("b@8 shown before the watch of b had it")
	}
	a.events <- watchEvent("MODIFIED", "b", "8")
	readEvents(t, body, 1)
	waitFor(t, "b@8 to be shown", func() bool { return p.Shown(b) })
}
