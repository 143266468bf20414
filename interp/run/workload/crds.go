package workload

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"

	"github.com/sievetool/sieve/interp/internal/crduse"

	"github.com/sievetool/sieve/lang/ir"
)

// InstallCRDs applies the controller's CRD manifests and waits until every
// CRD is established, so the controller and the workload can use them.
// With an Owner, a CRD the run did not create is used as it is when
// applying its manifest would change nothing, and is an error otherwise:
// sieve does not overwrite what it did not create.
func (x *Executor) InstallCRDs(ctx context.Context, c *ir.Controller) error {
	if err := x.init(); err != nil {
		return err
	}
	for _, file := range c.CRDs {
		objs, err := x.manifestObjects(file)
		if err != nil {
			return fmt.Errorf("%s: crds: %s: %w", c.Src, file, err)
		}
		for _, o := range objs {
			if err := x.installCRD(ctx, file, o); err != nil {
				return fmt.Errorf("%s: crds: %s: %w", c.Src, file, err)
			}
		}
		for _, o := range objs {
			wait := &ir.Step{
				Kind:    ir.StepWait,
				Src:     c.Src,
				Target:  &ir.Ref{Kind: "customresourcedefinition", Name: o.GetName()},
				Until:   &ir.WaitCond{Kind: ir.WaitReady},
				Timeout: ir.Duration(30 * time.Second),
			}
			if err := x.wait(ctx, wait); err != nil {
				return fmt.Errorf("%s: crds: %s: %w", c.Src, file, err)
			}
		}
	}
	x.mapper.m.Reset()
	return nil
}

var crdsGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// installCRD applies one object of a CRD manifest. With an Owner, a CRD
// that is not on the cluster is created, labelled and recorded as used by
// the run alone; one that is there is used as it is if the manifest would
// change nothing, and if another run of sieve created it, the run records
// its use (crduse.Join) so that the CRD stays until the last run that uses
// it ends. A conflict with another run doing the same means reading again.
func (x *Executor) installCRD(ctx context.Context, file string, o *unstructured.Unstructured) error {
	if x.Owner == nil || o.GetKind() != "CustomResourceDefinition" {
		return x.applyOne(ctx, o)
	}
	ri := x.dyn.Resource(crdsGVR)
	for range crdAttempts {
		err := x.useCRD(ctx, ri, file, o)
		if !apierrors.IsConflict(err) && !apierrors.IsAlreadyExists(err) && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return fmt.Errorf("crd %s: changed by other runs %d times while this run installed it (hint: try again)", o.GetName(), crdAttempts)
}

// crdAttempts bounds installCRD's rereads after a conflict with other runs.
const crdAttempts = 20

// useCRD creates CRD o or uses the one on the cluster; a conflict,
// AlreadyExists or NotFound error says another run changed it meanwhile.
func (x *Executor) useCRD(ctx context.Context, ri dynamic.ResourceInterface, file string, o *unstructured.Unstructured) error {
	cur, err := ri.Get(ctx, o.GetName(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		c := o.DeepCopy()
		x.label(c)
		crduse.Mark(c, x.Owner.Value)
		got, err := ri.Create(ctx, c, metav1.CreateOptions{FieldManager: FieldManager})
		x.saw.note(got)
		return err
	}
	if err != nil {
		return err
	}
	if cur.GetDeletionTimestamp() != nil {
		return x.waitCRDGone(ctx, ri, o.GetName())
	}
	same, err := x.unchangedBy(ctx, ri, o, cur)
	if err != nil {
		return fmt.Errorf("crd %s: %w", o.GetName(), err)
	}
	if !same {
		return fmt.Errorf("crd %s exists on the cluster and differs from %s; sieve does not overwrite what it did not create", o.GetName(), file)
	}
	if _, ok := cur.GetLabels()[x.Owner.Key]; !ok {
		return nil // the cluster's own: no run of sieve deletes it
	}
	return crduse.Join(ctx, ri, cur, x.Owner.Value)
}

// waitCRDGone waits until CRD name, which the last run that used it is
// deleting, is gone, and then returns a NotFound error: install it anew.
func (x *Executor) waitCRDGone(ctx context.Context, ri dynamic.ResourceInterface, name string) error {
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := ri.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	})
	if err != nil {
		return fmt.Errorf("crd %s: waiting for another run to delete it: %w", name, err)
	}
	return apierrors.NewNotFound(crdsGVR.GroupResource(), name)
}
