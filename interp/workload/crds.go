package workload

import (
	"context"
	"fmt"
	"time"

	"github.com/sievetool/sieve/lang/ir"
)

// InstallCRDs applies the controller's CRD manifests and waits until every
// CRD is established, so the controller and the workload can use them.
func (x *Executor) InstallCRDs(ctx context.Context, c *ir.Controller) error {
	if err := x.init(); err != nil {
		return err
	}
	for _, file := range c.CRDs {
		apply := &ir.Step{Kind: ir.StepApply, Src: c.Src, File: file}
		if err := x.apply(ctx, apply); err != nil {
			return fmt.Errorf("%s: crds: %s: %w", c.Src, file, err)
		}
		objs, err := x.manifestObjects(file)
		if err != nil {
			return fmt.Errorf("%s: crds: %s: %w", c.Src, file, err)
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
