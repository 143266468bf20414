package dispatch

import (
	"slices"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

func TestStatusOf(t *testing.T) {
	job := &batchv1.Job{Spec: batchv1.JobSpec{Completions: ptr.To(int32(8))}, Status: batchv1.JobStatus{
		Active: 2, CompletedIndexes: "0-2,5", FailedIndexes: ptr.To("4"),
		Conditions: []batchv1.JobCondition{{Type: batchv1.JobFailed, Status: corev1.ConditionTrue, Reason: "FailedIndexes"}},
	}}
	s := StatusOf(job)
	if !slices.Equal(s.Completed, []int{1, 2, 3, 6}) || !slices.Equal(s.Failed, []int{5}) || !s.Finished {
		t.Errorf("status %+v", s)
	}
	if got, want := s.String(), "shards: 4/8 done, 2 running, 1 failed (FailedIndexes)"; got != want {
		t.Errorf("status line %q, want %q", got, want)
	}
}

func TestDeadline(t *testing.T) {
	c := &Campaign{Shards: 4, Workers: 2, PlansPerShard: []int{3, 5, 1, 2}}
	// two waves of shards, the largest of 5 plans, a minute each, twice
	// over, and ten minutes
	if got, want := c.deadline().Minutes(), float64(2*5*2+10); got != want {
		t.Errorf("deadline %v min, want %v", got, want)
	}
}
