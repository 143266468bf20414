package dispatch_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/sievetool/sieve/interp/campaign/dispatch"
	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// TestJobAcceptedAndCancelled creates a campaign's Job on a real API
// server (its validation, not a mock, decides), reads it back, and
// cancels Follow as Ctrl-C does: the Job must be deleted.
func TestJobAcceptedAndCancelled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an embedded control plane")
	}
	c := embeddedtest.Start(t, embedded.Options{})
	cs, err := kubernetes.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	camp := &dispatch.Campaign{Name: "t1", Namespace: "default", Image: "registry.example/sieve/worker@sha256:" + strings.Repeat("0", 64),
		Test: "buggy", Spec: "datastore.sieve", Shards: 5, Workers: 2, PlansPerShard: []int{3, 2, 4, 1, 2},
		Artifacts: "registry.example/sieve/worker", RunArgs: []string{"--max-plans", "10"}, PushSecret: "push"}
	job, err := camp.Job()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	first := make(chan dispatch.Status, 1)
	go func() {
		_, err := dispatch.Follow(ctx, cs, job, 200*time.Millisecond, func(s dispatch.Status) {
			select {
			case first <- s:
			default:
			}
		})
		done <- err
	}()
	got := waitJob(t, cs, done)
	checkJob(t, got)
	// Cancel once Follow has the create's answer (the Job can be on the
	// server before that: TestFollowCutCreate covers a cancel in between).
	select {
	case s := <-first:
		if s.Shards != 5 {
			t.Errorf("first status %+v, want 5 shards", s)
		}
	case <-time.After(30 * time.Second):
		t.Error("no status from Follow within 30s")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Follow after cancel: %v, want context.Canceled", err)
	}
	waitDeleted(t, cs)
}

// waitJob waits until the Job is on the API server.
func waitJob(t *testing.T, cs kubernetes.Interface, done chan error) *batchv1.Job {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("Follow returned early: %v", err)
		default:
		}
		job, err := cs.BatchV1().Jobs("default").Get(context.Background(), "sieve-t1", metav1.GetOptions{})
		if err == nil {
			return job
		}
	}
	t.Fatal("the job never appeared")
	return nil
}

func checkJob(t *testing.T, job *batchv1.Job) {
	t.Helper()
	s := job.Spec
	if ptr.Deref(s.CompletionMode, "") != batchv1.IndexedCompletion || ptr.Deref(s.Completions, 0) != 5 || ptr.Deref(s.Parallelism, 0) != 2 {
		t.Errorf("completion mode %v, completions %v, parallelism %v; want Indexed, 5, 2", ptr.Deref(s.CompletionMode, ""), ptr.Deref(s.Completions, 0), ptr.Deref(s.Parallelism, 0))
	}
	if ptr.Deref(s.BackoffLimitPerIndex, -1) != 1 || ptr.Deref(s.ActiveDeadlineSeconds, 0) < 600 {
		t.Errorf("backoffLimitPerIndex %v, activeDeadlineSeconds %v", ptr.Deref(s.BackoffLimitPerIndex, -1), ptr.Deref(s.ActiveDeadlineSeconds, 0))
	}
	if job.Labels[dispatch.LabelCampaign] != "t1" || s.Template.Labels[dispatch.LabelCampaign] != "t1" {
		t.Errorf("labels %v, template labels %v: want %s=t1", job.Labels, s.Template.Labels, dispatch.LabelCampaign)
	}
	ct := s.Template.Spec.Containers[0]
	env := map[string]string{}
	for _, e := range ct.Env {
		env[e.Name] = e.Value
	}
	if env["PATH"] != "/sieve/bin" || env["HOME"] != "/tmp" || env["DOCKER_CONFIG"] != "/sieve-auth" {
		t.Errorf("env %v", env)
	}
	want := []string{"--bundle", "bundle.json", "--test", "buggy", "--shards", "5", "--artifacts", "registry.example/sieve/worker", "--campaign", "t1", "--", "--max-plans", "10"}
	if !slices.Equal(ct.Args, want) || !slices.Equal(ct.Command, []string{"sieve", "internal", "worker"}) {
		t.Errorf("command %q args %q, want sieve internal worker %q", ct.Command, ct.Args, want)
	}
	if cpu := ct.Resources.Requests.Cpu().String(); cpu != dispatch.Cost.CPU {
		t.Errorf("cpu request %s, want %s", cpu, dispatch.Cost.CPU)
	}
	if s.PodFailurePolicy == nil || s.PodFailurePolicy.Rules[0].Action != batchv1.PodFailurePolicyActionFailIndex {
		t.Errorf("pod failure policy %v: want FailIndex on exit code %d", s.PodFailurePolicy, dispatch.ExitUsage)
	}
}

// waitDeleted waits until the Job is gone or being deleted in the
// foreground (its pods first).
func waitDeleted(t *testing.T, cs kubernetes.Interface) {
	t.Helper()
	var job *batchv1.Job
	var err error
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		job, err = cs.BatchV1().Jobs("default").Get(context.Background(), "sieve-t1", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return
		}
	}
	if err != nil {
		t.Fatalf("reading the job after cancel: %v", err)
	}
	if job.DeletionTimestamp == nil || !slices.Contains(job.Finalizers, metav1.FinalizerDeleteDependents) {
		t.Errorf("job after cancel: deletion %v, finalizers %v; want deleted with foreground propagation", job.DeletionTimestamp, job.Finalizers)
	} else {
		t.Logf("job still deleting its pods after 30s (finalizers %v)", job.Finalizers)
	}
}
