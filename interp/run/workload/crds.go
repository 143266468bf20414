package workload

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

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

// installCRD applies one object of a CRD manifest, unless the run did not
// create it and it is the same as the manifest says.
func (x *Executor) installCRD(ctx context.Context, file string, o *unstructured.Unstructured) error {
	if x.Owner == nil || o.GetKind() != "CustomResourceDefinition" {
		return x.applyOne(ctx, o)
	}
	ri := x.dyn.Resource(crdsGVR)
	cur, err := ri.Get(ctx, o.GetName(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) || (err == nil && x.owns(cur)) {
		return x.applyOne(ctx, o)
	}
	if err != nil {
		return err
	}
	same, err := x.unchangedBy(ctx, ri, o, cur)
	if err != nil {
		return fmt.Errorf("crd %s: %w", o.GetName(), err)
	}
	if !same {
		return fmt.Errorf("crd %s exists on the cluster and differs from %s; sieve does not overwrite what it did not create", o.GetName(), file)
	}
	return nil
}
