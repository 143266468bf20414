package proxy

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/lang/ir"
)

// configMapAPI is a fake upstream that creates every config map it is sent.
func configMapAPI(t *testing.T) *fakeAPI {
	return newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprint(w, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"default","resourceVersion":"7"}}`)
	})
}

// answering returns hooks that answer every create with kind: in place of
// the upstream (Before), or after it for timeout_applied (After).
func answering(kind ir.APIErrorKind) Hooks {
	refuse := func(r *Request) error {
		if r.Verb != "create" {
			return nil
		}
		se, err := APIError(kind, r)
		if err != nil {
			return err
		}
		return se
	}
	if kind == ir.ErrTimeoutApplied {
		return Hooks{After: func(_ context.Context, r *Request, _ *Response) error { return refuse(r) }}
	}
	return Hooks{Before: func(_ context.Context, r *Request) error { return refuse(r) }}
}

// TestAPIErrorDecodes sends a create through the proxy with client-go and
// checks that the error the proxy answers in the API server's place is
// the apierrors error client-go code tests for, and that the write
// reached the upstream only for timeout_applied.
func TestAPIErrorDecodes(t *testing.T) {
	cases := []struct {
		kind    ir.APIErrorKind
		is      func(error) bool
		code    int32
		applied bool
	}{
		{ir.ErrConflict, apierrors.IsConflict, 409, false},
		{ir.ErrTooManyRequests, apierrors.IsTooManyRequests, 429, false},
		{ir.ErrInternal, apierrors.IsInternalError, 500, false},
		{ir.ErrTimeout, apierrors.IsTimeout, 504, false},
		{ir.ErrTimeoutApplied, apierrors.IsTimeout, 504, true},
	}
	for _, c := range cases {
		t.Run(string(c.kind), func(t *testing.T) {
			f := configMapAPI(t)
			p := startProxy(t, f, answering(c.kind), nil)
			cs, err := kubernetes.NewForConfig(p.RESTConfig())
			if err != nil {
				t.Fatal(err)
			}
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm", Namespace: "default"}}
			// No retries: client-go would send a 429 with Retry-After again.
			err = cs.CoreV1().RESTClient().Post().Namespace("default").Resource("configmaps").
				MaxRetries(0).Body(cm).Do(context.Background()).Into(&corev1.ConfigMap{})
			if !c.is(err) {
				t.Fatalf("create: got %v (%T), want the %s error", err, err, c.kind)
			}
			if st, ok := err.(apierrors.APIStatus); !ok || st.Status().Code != c.code {
				t.Errorf("status: got %v, want code %d", err, c.code)
			}
			if applied := len(f.seen()) > 0; applied != c.applied {
				t.Errorf("the upstream saw the write: %v, want %v", applied, c.applied)
			}
		})
	}
}

// TestAPIErrorConflictNamesObject checks the conflict's details and
// message: the object and its resource, as the API server names them.
func TestAPIErrorConflictNamesObject(t *testing.T) {
	r := &Request{Verb: "update", Resource: "statefulsets", Group: "apps"}
	r.Key.Name = "web"
	se, err := APIError(ir.ErrConflict, r)
	if err != nil {
		t.Fatal(err)
	}
	if se.Details == nil || se.Details.Name != "web" || se.Details.Group != "apps" || se.Details.Kind != "statefulsets" {
		t.Errorf("details: got %+v", se.Details)
	}
	want := `Operation cannot be fulfilled on statefulsets.apps "web": the object has been modified; please apply your changes to the latest version and try again (injected by sieve)`
	if se.Message != want {
		t.Errorf("message:\n got %s\nwant %s", se.Message, want)
	}
	if _, err := APIError("teapot", r); err == nil {
		t.Error("unknown kind: got no error")
	}
}

// TestAPIErrorRetryAfter checks that a 429 carries Retry-After, so that
// client-go waits and sends the write again by itself: the create
// succeeds, the second attempt reaching the upstream.
func TestAPIErrorRetryAfter(t *testing.T) {
	f := configMapAPI(t)
	var n atomic.Int32
	h := Hooks{Before: func(_ context.Context, r *Request) error {
		if r.Verb == "create" && n.Add(1) == 1 {
			se, _ := APIError(ir.ErrTooManyRequests, r)
			return se
		}
		return nil
	}}
	p := startProxy(t, f, h, nil)
	cs, err := kubernetes.NewForConfig(p.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm", Namespace: "default"}}
	if _, err := cs.CoreV1().ConfigMaps("default").Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create: %v (client-go should have retried after the 429)", err)
	}
	if n.Load() != 2 || len(f.seen()) != 1 {
		t.Errorf("attempts: %d through the proxy, %d upstream; want 2 and 1", n.Load(), len(f.seen()))
	}
	if d := time.Since(start); d < 900*time.Millisecond {
		t.Errorf("the retry came after %s, want the Retry-After second", d)
	}
}

// TestAPIErrorAnswersRead answers a get and a list, in the API server's
// place, with the errors that answer a read (ir.ReadErrors but 429,
// which client-go retries): client-go's Get and List return the apierrors
// error, and the upstream sees neither read.
func TestAPIErrorAnswersRead(t *testing.T) {
	cases := []struct {
		kind ir.APIErrorKind
		is   func(error) bool
	}{
		{ir.ErrInternal, apierrors.IsInternalError},
		{ir.ErrTimeout, apierrors.IsTimeout},
	}
	for _, c := range cases {
		t.Run(string(c.kind), func(t *testing.T) {
			f := configMapAPI(t)
			h := Hooks{Before: func(_ context.Context, r *Request) error {
				if r.Verb != "get" && r.Verb != "list" {
					return nil
				}
				se, err := APIError(c.kind, r)
				if err != nil {
					return err
				}
				return se
			}}
			p := startProxy(t, f, h, nil)
			cs, err := kubernetes.NewForConfig(p.RESTConfig())
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if _, err := cs.CoreV1().ConfigMaps("default").Get(ctx, "cm", metav1.GetOptions{}); !c.is(err) {
				t.Errorf("get: got %v (%T), want the %s error", err, err, c.kind)
			}
			if _, err := cs.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{}); !c.is(err) {
				t.Errorf("list: got %v (%T), want the %s error", err, err, c.kind)
			}
			if n := len(f.seen()); n != 0 {
				t.Errorf("the upstream saw %d reads, want none", n)
			}
		})
	}
}
