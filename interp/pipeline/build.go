package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sievetool/sieve/interp/controller"
	"github.com/sievetool/sieve/lang/ir"
)

// buildOnce builds a controller given as a Go package and returns a copy of
// the test that runs the binary, so every run starts the same binary
// without asking the go command again.
func buildOnce(ctx context.Context, t *ir.Test, baseDir, cacheDir string) (*ir.Test, error) {
	c := t.Controller
	if c.Build == "" {
		return t, nil
	}
	if cacheDir == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			dir = os.TempDir()
		}
		cacheDir = filepath.Join(dir, "sieve", "bin")
	}
	dir := baseDir
	switch {
	case filepath.IsAbs(c.Dir):
		dir = c.Dir
	case c.Dir != "":
		dir = filepath.Join(baseDir, c.Dir)
	}
	bin, err := controller.Build(ctx, dir, c.Build, cacheDir)
	if err != nil {
		return nil, fmt.Errorf("%s: controller %s: %w", c.Src, c.Name, err)
	}
	tc, cc := *t, *c
	cc.Build, cc.Command = "", []string{bin}
	tc.Controller = &cc
	return &tc, nil
}
