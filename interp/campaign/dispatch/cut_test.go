package dispatch

import (
	"context"
	"errors"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// TestFollowCutCreate cancels Follow while its create is on its way: the
// Job reaches the server but the answer never comes back. Follow must
// delete that Job, and leave alone a Job of the same name it did not send.
func TestFollowCutCreate(t *testing.T) {
	for _, ours := range []bool{true, false} {
		cs := fake.NewClientset()
		ctx, cancel := context.WithCancel(context.Background())
		cs.PrependReactor("create", "jobs", func(a k8stesting.Action) (bool, runtime.Object, error) {
			obj := a.(k8stesting.CreateAction).GetObject().(*batchv1.Job)
			if !ours {
				obj = obj.DeepCopy()
				obj.Annotations = nil // somebody else's Job of that name
			}
			if err := cs.Tracker().Create(a.GetResource(), obj, obj.Namespace); err != nil {
				t.Fatal(err)
			}
			cancel() // Ctrl-C while the answer is on its way
			return true, nil, context.Canceled
		})
		job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "sieve-t1"}}
		if _, err := Follow(ctx, cs, job, 0, nil); !errors.Is(err, context.Canceled) {
			t.Fatalf("ours=%v: Follow: %v, want context.Canceled", ours, err)
		}
		_, err := cs.BatchV1().Jobs("default").Get(context.Background(), "sieve-t1", metav1.GetOptions{})
		if gone := apierrors.IsNotFound(err); gone != ours {
			t.Errorf("ours=%v: job gone %v (%v), want %v", ours, gone, err, ours)
		}
	}
}
