package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/campaign/dispatch"
	"github.com/sievetool/sieve/interp/campaign/image"
	"github.com/sievetool/sieve/interp/cluster/embedded/controlplane"
	"github.com/sievetool/sieve/interp/run/controller"
	"github.com/sievetool/sieve/lang/ir"
)

// imageFlags are the flags of `sieve image`.
type imageFlags struct {
	includes     []string
	tests        []string
	base         string
	push         string
	layout       string
	tarball      string
	tag          string
	sieve        string
	controlPlane string
}

func newImageCmd(g *globals) *cobra.Command {
	f := &imageFlags{}
	cmd := &cobra.Command{
		Use:   "image SPEC (--push REF | --oci-layout DIR | --tarball FILE)",
		Short: "Build the worker image that runs a spec's plans on a Kubernetes cluster",
		Long: "Image builds an OCI image, without a container daemon, that sieve run --on kubernetes\n" +
			"runs in each pod: the sieve and sieve-controlplane binaries, each test's controller\n" +
			"built from its Go package for linux/amd64 without cgo, and the spec's directory\n" +
			"(imports, manifests, CRDs) with the -I directories. The base is empty unless --base\n" +
			"names one (a registry reference, a tarball or an OCI layout). The same inputs give\n" +
			"the same digest. The image's reference by digest is printed on stdout.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runImage(cmd.Context(), g, f, args[0]) },
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.includes, "include", "I", nil, includeUsage)
	fl.StringArrayVar(&f.tests, "test", nil, "carry only the controller of test `NAME` (repeatable; default every test)")
	fl.StringVar(&f.base, "base", "", "build on the image `SRC`: a registry reference, a tarball or an OCI layout directory (default: none)")
	fl.StringVar(&f.push, "push", "", "push the image to `REF` (registry/repository:tag; credentials from the Docker config)")
	fl.StringVar(&f.layout, "oci-layout", "", "add the image to the OCI layout `DIR`")
	fl.StringVar(&f.tarball, "tarball", "", "write the image as a tarball `FILE` (docker load, ctr images import)")
	fl.StringVar(&f.tag, "tag", "sieve/worker:latest", "the `REF` the tarball and the layout name the image (default: --push's)")
	fl.StringVar(&f.sieve, "sieve-binary", "", "the sieve binary to carry, built for linux/amd64 (default: this one)")
	fl.StringVar(&f.controlPlane, "controlplane", "", "the sieve-controlplane binary to carry (default: the one sieve run uses)")
	return cmd
}

func runImage(ctx context.Context, g *globals, f *imageFlags, file string) error {
	if f.push == "" && f.layout == "" && f.tarball == "" {
		return usageErr(fmt.Errorf("image: nowhere to put it (give --push REF, --oci-layout DIR or --tarball FILE)"))
	}
	if err := absPaths(&file, &f.layout, &f.tarball, &f.sieve, &f.controlPlane); err != nil {
		return usageErr(err)
	}
	if err := absList(f.includes); err != nil {
		return usageErr(err)
	}
	tests, err := loadTests(g, file, loadOptions(f.includes), f.tests)
	if err != nil {
		return err
	}
	g.interruptible()
	tmp, err := os.MkdirTemp("", "sieve-image-")
	if err != nil {
		return infraErr(err)
	}
	defer os.RemoveAll(tmp)
	b, err := f.bundle(ctx, g, file, tests, tmp)
	if err != nil {
		return err
	}
	opts, err := imageOptions(ctx, g, f.base, b)
	if err != nil {
		return err
	}
	return f.write(ctx, g, opts)
}

// bundle gathers the image's files: the binaries (building the
// controllers) and the spec.
func (f *imageFlags) bundle(ctx context.Context, g *globals, file string, tests []*ir.Test, tmp string) (dispatch.Bundle, error) {
	b := dispatch.Bundle{Spec: file, Includes: f.includes, Sieve: f.sieve, ControlPlane: f.controlPlane, Controllers: map[string]string{}}
	var err error
	if b.Sieve == "" {
		if b.Sieve, err = os.Executable(); err != nil {
			return b, infraErr(err)
		}
	}
	if b.ControlPlane == "" {
		if b.ControlPlane, err = controlplane.Ensure(ctx, controlplane.Options{Progress: g.progress()}); err != nil {
			return b, infraErr(err)
		}
	}
	for _, t := range tests {
		c := t.Controller
		if c.Build == "" {
			continue
		}
		out := filepath.Join(tmp, "controller-"+t.Name)
		g.note("image: building controller %s (%s) for linux/amd64", c.Name, c.Build)
		if err := dispatch.BuildController(ctx, controller.WorkDir(c, filepath.Dir(file)), c.Build, out); err != nil {
			return b, fmt.Errorf("%s: controller %s: %w", relPath(c.Src.String()), c.Name, err)
		}
		b.Controllers[t.Name] = out
	}
	return b, nil
}

// imageOptions say to build the image on base (none: an empty one, with the
// C library the binaries need).
func imageOptions(ctx context.Context, g *globals, base string, b dispatch.Bundle) (image.Options, error) {
	opts := image.Options{Config: dispatch.Config()}
	if base != "" {
		img, err := image.Load(ctx, base)
		if err != nil {
			return opts, usageErr(fmt.Errorf("--base: %w", err))
		}
		opts.Base = img
	} else if err := noteDynamic(g, b); err != nil {
		return opts, err
	}
	layers, err := b.Layers(base == "")
	if err != nil {
		return opts, infraErr(err)
	}
	opts.Layers = layers
	return opts, nil
}

// noteDynamic says which binaries need the C library that the image then
// carries from this machine, and refuses what is not a linux/amd64
// executable.
func noteDynamic(g *globals, b dispatch.Bundle) error {
	for _, bin := range []string{b.Sieve, b.ControlPlane} {
		dyn, err := dispatch.Dynamic(bin)
		if err != nil {
			return usageErr(fmt.Errorf("image: %w", err))
		}
		if dyn {
			g.note("image: %s is linked dynamically: the image carries its loader and shared libraries from this machine", relPath(bin))
		}
	}
	return nil
}

// write builds the image and puts it where the flags say, printing its
// reference by digest.
func (f *imageFlags) write(ctx context.Context, g *globals, opts image.Options) error {
	img, err := image.Build(opts)
	if err != nil {
		return infraErr(err)
	}
	digest, err := image.Digest(img)
	if err != nil {
		return infraErr(err)
	}
	tag := f.tag
	if f.push != "" {
		ref, err := image.Push(ctx, img, f.push)
		if err != nil {
			return infraErr(err)
		}
		fmt.Fprintln(g.stdout, ref)
		tag = f.push
	}
	if f.layout != "" {
		if err := image.WriteLayout(f.layout, tag, img); err != nil {
			return infraErr(err)
		}
		g.note("image: %s added to the OCI layout %s", digest, relPath(f.layout))
	}
	if f.tarball != "" {
		if err := image.WriteTarball(f.tarball, tag, img); err != nil {
			return infraErr(err)
		}
		g.note("image: %s written to %s as %s", digest, relPath(f.tarball), tag)
	}
	if f.push == "" {
		fmt.Fprintln(g.stdout, digest)
	}
	return nil
}
