package dispatch

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
)

// Status is a campaign's Job as its status tells it. Shards are numbered
// from 1, as sieve run --shard numbers them (index i is shard i+1).
type Status struct {
	Shards    int
	Completed []int
	Failed    []int
	Active    int32
	// Finished says the Job is complete or failed; Reason why it failed
	// (BackoffLimitExceeded, DeadlineExceeded, FailedIndexes...).
	Finished bool
	Reason   string
}

// String is one line of progress.
func (s Status) String() string {
	line := fmt.Sprintf("shards: %d/%d done, %d running, %d failed", len(s.Completed), s.Shards, s.Active, len(s.Failed))
	if s.Reason != "" {
		line += " (" + s.Reason + ")"
	}
	return line
}

// StatusOf reads a Job's status.
func StatusOf(job *batchv1.Job) Status {
	s := Status{Shards: int(ptr.Deref(job.Spec.Completions, 0)), Active: job.Status.Active}
	s.Completed = shards(job.Status.CompletedIndexes)
	s.Failed = shards(ptr.Deref(job.Status.FailedIndexes, ""))
	for _, c := range job.Status.Conditions {
		if c.Status != corev1.ConditionTrue {
			continue
		}
		switch c.Type {
		case batchv1.JobComplete:
			s.Finished = true
		case batchv1.JobFailed:
			s.Finished, s.Reason = true, c.Reason
		}
	}
	return s
}

// shards reads an index list ("0-2,5") as shard numbers (1-3, 6).
func shards(list string) []int {
	var out []int
	for part := range strings.SplitSeq(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			continue
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				continue
			}
		}
		for i := a; i <= b; i++ {
			out = append(out, i+1)
		}
	}
	return out
}

// Follow creates the Job and polls it every interval (default two
// seconds), telling each change of its status to progress, until it
// finishes. When ctx is cancelled (Ctrl-C) it deletes the Job with
// foreground propagation — its pods go first — and returns ctx's error.
func Follow(ctx context.Context, cs kubernetes.Interface, job *batchv1.Job, interval time.Duration, progress func(Status)) (Status, error) {
	jobs := cs.BatchV1().Jobs(job.Namespace)
	job = job.DeepCopy()
	token := rand.Text()
	metav1.SetMetaDataAnnotation(&job.ObjectMeta, submissionAnnotation, token)
	created, err := jobs.Create(ctx, job, metav1.CreateOptions{})
	if err != nil {
		err = fmt.Errorf("creating job %s/%s: %w", job.Namespace, job.Name, err)
		var answered apierrors.APIStatus
		if ctx.Err() != nil && !errors.As(err, &answered) {
			// Cancelled while the create was on its way: the Job may be
			// on the server though its answer never came.
			return Status{}, cancelled(err, deleteSubmitted(cs, job, token))
		}
		return Status{}, err
	}
	if interval <= 0 {
		interval = 2 * time.Second
	}
	last := ""
	for tick := time.NewTicker(interval); ; {
		s := StatusOf(created)
		if line := s.String(); line != last && progress != nil {
			progress(s)
			last = line
		}
		if s.Finished {
			return s, nil
		}
		select {
		case <-ctx.Done():
			tick.Stop()
			return s, cancelled(ctx.Err(), Delete(cs, job.Namespace, job.Name))
		case <-tick.C:
		}
		got, err := jobs.Get(ctx, job.Name, metav1.GetOptions{})
		switch {
		case err == nil:
			created = got
		case ctx.Err() == nil:
			return s, fmt.Errorf("reading job %s/%s: %w", job.Namespace, job.Name, err)
		}
	}
}

// submissionAnnotation holds a token that one Follow gives the Job it
// creates, so that a create whose answer never came deletes that Job and
// no other of the same name.
const submissionAnnotation = "sieve.dev/submission"

// deleteSubmitted deletes the Job job names if it is the one that carries
// token (Delete's way, and only that object: its UID is a precondition).
func deleteSubmitted(cs kubernetes.Interface, job *batchv1.Job, token string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got, err := cs.BatchV1().Jobs(job.Namespace).Get(ctx, job.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if got.Annotations[submissionAnnotation] != token {
		return nil // not the Job this Follow sent
	}
	return deleteJob(ctx, cs, job.Namespace, job.Name, &metav1.Preconditions{UID: &got.UID})
}

// cancelled joins the cancellation with a failure to delete.
func cancelled(cancelled, deleting error) error {
	if deleting != nil {
		return fmt.Errorf("%w (and the job was not deleted: %v)", cancelled, deleting)
	}
	return cancelled
}

// Delete deletes a campaign's Job and, first, its pods (foreground
// propagation), within thirty seconds.
func Delete(cs kubernetes.Interface, namespace, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return deleteJob(ctx, cs, namespace, name, nil)
}

// deleteJob deletes a Job with foreground propagation, under the
// preconditions if any; a Job already gone is no error.
func deleteJob(ctx context.Context, cs kubernetes.Interface, namespace, name string, pre *metav1.Preconditions) error {
	err := cs.BatchV1().Jobs(namespace).Delete(ctx, name, metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationForeground), Preconditions: pre})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// Logs returns the last lines of the log of shard's newest pod (shard
// numbered from 1), and the pod's name.
func Logs(ctx context.Context, cs kubernetes.Interface, namespace, job string, shard int, lines int64) (pod, log string, err error) {
	sel := fmt.Sprintf("%s=%s,%s=%d", batchv1.JobNameLabel, job, batchv1.JobCompletionIndexAnnotation, shard-1)
	pods, err := cs.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return "", "", fmt.Errorf("listing the pods of shard %d: %w", shard, err)
	}
	if len(pods.Items) == 0 {
		return "", "", fmt.Errorf("shard %d: no pod left (the job's pods may have been deleted)", shard)
	}
	newest := slices.MaxFunc(pods.Items, func(a, b corev1.Pod) int {
		return a.CreationTimestamp.Compare(b.CreationTimestamp.Time)
	})
	rc, err := cs.CoreV1().Pods(namespace).GetLogs(newest.Name, &corev1.PodLogOptions{Container: container, TailLines: &lines}).Stream(ctx)
	if err != nil {
		return newest.Name, "", fmt.Errorf("log of pod %s: %w", newest.Name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	return newest.Name, string(b), err
}
