package pipeline

import (
	"context"
	"fmt"

	"github.com/sievetool/sieve/interp/run/controller"
	"github.com/sievetool/sieve/lang/ir"
)

// buildOnce builds a controller given as a Go package and returns a copy of
// the test that runs the binary, so every run starts the same binary
// without asking the go command again. A binary built before (prebuilt,
// if not empty) is used as it is.
func buildOnce(ctx context.Context, t *ir.Test, baseDir, cacheDir, prebuilt string) (*ir.Test, error) {
	c := t.Controller
	if c.Build == "" {
		return t, nil
	}
	bin := prebuilt
	if bin == "" {
		var err error
		bin, err = controller.Build(ctx, controller.WorkDir(c, baseDir), c.Build, controller.CacheDir(cacheDir))
		if err != nil {
			return nil, fmt.Errorf("%s: controller %s: %w", c.Src, c.Name, err)
		}
	}
	tc, cc := *t, *c
	cc.Build, cc.Command = "", []string{bin}
	tc.Controller = &cc
	return &tc, nil
}
