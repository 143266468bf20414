package crduse

import (
	"context"
	"fmt"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/sievetool/sieve/interp/internal/runlabel"
)

// attempts bounds the rereads after a conflict: each one means another
// run changed the CRD meanwhile, which a few runs at once do a few times.
const attempts = 20

// Users returns the IDs of the runs that use o, as its runlabel.Users
// annotation lists them.
func Users(o metav1.Object) []string {
	v := o.GetAnnotations()[runlabel.Users]
	if v == "" {
		return nil
	}
	return strings.Split(v, ",")
}

// Mark records run as the only user of o, a CRD the run is about to
// create.
func Mark(o metav1.Object, run string) { setUsers(o, []string{run}) }

// setUsers writes users to o's runlabel.Users annotation.
func setUsers(o metav1.Object, users []string) {
	a := o.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[runlabel.Users] = strings.Join(users, ",")
	o.SetAnnotations(a)
}

// Join records that run uses cur, a CRD another run of sieve created, as
// read from the cluster: the update is conditional on cur's
// resourceVersion, and fails with a conflict (apierrors.IsConflict) if
// the CRD changed since, or NotFound if it is gone: read it again.
func Join(ctx context.Context, ri dynamic.ResourceInterface, cur *unstructured.Unstructured, run string) error {
	users := Users(cur)
	if slices.Contains(users, run) {
		return nil
	}
	o := cur.DeepCopy()
	setUsers(o, append(users, run))
	_, err := ri.Update(ctx, o, metav1.UpdateOptions{})
	return err
}

// Release ends run's use of every CRD that records it, and deletes those
// it was the last user of, along with those that carry run's label and
// record no user (a workload step applied them). It returns the names of
// the CRDs it deleted, which may take a while to go.
func Release(ctx context.Context, ri dynamic.ResourceInterface, run string) ([]string, error) {
	list, err := ri.List(ctx, metav1.ListOptions{LabelSelector: runlabel.Key})
	if err != nil {
		return nil, fmt.Errorf("list customresourcedefinitions: %w", err)
	}
	var deleted []string
	for _, o := range list.Items {
		gone, err := release(ctx, ri, o.GetName(), run)
		if err != nil {
			return deleted, fmt.Errorf("customresourcedefinition %s: %w", o.GetName(), err)
		}
		if gone {
			deleted = append(deleted, o.GetName())
		}
	}
	return deleted, nil
}

// release ends run's use of CRD name, reading it again after a conflict,
// and reports whether it deleted it.
func release(ctx context.Context, ri dynamic.ResourceInterface, name, run string) (bool, error) {
	for range attempts {
		gone, err := releaseOnce(ctx, ri, name, run)
		if !apierrors.IsConflict(err) {
			return gone, err
		}
	}
	return false, fmt.Errorf("changed by other runs %d times while this run let it go (hint: try again)", attempts)
}

// releaseOnce reads CRD name and, conditionally on what it read, deletes
// it if run is its last user or removes run from its users.
func releaseOnce(ctx context.Context, ri dynamic.ResourceInterface, name, run string) (bool, error) {
	cur, err := ri.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	users := Users(cur)
	if !slices.Contains(users, run) && (len(users) > 0 || cur.GetLabels()[runlabel.Key] != run) {
		return false, nil // not run's to let go (any more)
	}
	others := slices.DeleteFunc(users, func(u string) bool { return u == run })
	if len(others) > 0 {
		setUsers(cur, others)
		_, err := ri.Update(ctx, cur, metav1.UpdateOptions{})
		return false, ignoreNotFound(err)
	}
	rv := cur.GetResourceVersion()
	err = ri.Delete(ctx, name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &rv}})
	return err == nil, ignoreNotFound(err)
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
