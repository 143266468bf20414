package image

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Options say what an image is made of. The zero value is an empty
// linux/amd64 image.
type Options struct {
	// Base is the image to build on (nil: none, an empty "scratch" image;
	// add ScratchEntries for what a program expects to find).
	Base v1.Image
	// Layers are added on top of the base, one layer each.
	Layers [][]Entry
	// Config sets the entrypoint, environment, working directory, user
	// and labels; it replaces the base's.
	Config v1.Config
}

// ScratchEntries are what a program needs of an empty base: a /tmp that
// anyone may write to, and /etc/passwd and /etc/group naming root and the
// unprivileged user 65532 ("nonroot", as distroless names it).
func ScratchEntries() []Entry {
	return []Entry{
		{Name: "tmp", Dir: true, Mode: 0o777 | os.ModeSticky},
		{Name: "etc/passwd", Data: []byte("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/tmp:/sbin/nologin\n")},
		{Name: "etc/group", Data: []byte("root:x:0:\nnonroot:x:65532:\n")},
	}
}

// Build makes the image: the base, the layers, the config, the time
// Epoch, an OCI manifest.
func Build(opts Options) (v1.Image, error) {
	img := opts.Base
	if img == nil {
		img = mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	}
	for _, entries := range opts.Layers {
		l, err := Layer(entries)
		if err != nil {
			return nil, err
		}
		if img, err = mutate.AppendLayers(img, l); err != nil {
			return nil, fmt.Errorf("image: %w", err)
		}
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("image: base config: %w", err)
	}
	cf = cf.DeepCopy()
	cf.Config = opts.Config
	cf.OS, cf.Architecture = "linux", "amd64"
	cf.Created = v1.Time{Time: Epoch}
	cf.History = nil
	if img, err = mutate.ConfigFile(img, cf); err != nil {
		return nil, fmt.Errorf("image: %w", err)
	}
	return img, nil
}

// Digest is the image's manifest digest, "sha256:...".
func Digest(img v1.Image) (string, error) {
	h, err := img.Digest()
	if err != nil {
		return "", fmt.Errorf("image: %w", err)
	}
	return h.String(), nil
}

// Push writes the image to a registry under ref (registry/repo:tag), with
// the credentials of the Docker config ($DOCKER_CONFIG/config.json), and
// returns the reference by digest (registry/repo@sha256:...).
func Push(ctx context.Context, img v1.Image, ref string) (string, error) {
	r, err := name.ParseReference(ref)
	if err != nil {
		return "", fmt.Errorf("image: %q: %w (want registry/repository:tag)", ref, err)
	}
	if err := remote.Write(r, img, remote.WithContext(ctx), remote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
		return "", fmt.Errorf("image: pushing %s: %w", ref, err)
	}
	d, err := Digest(img)
	if err != nil {
		return "", err
	}
	return r.Context().Digest(d).String(), nil
}

// Pull reads the image ref names from its registry.
func Pull(ctx context.Context, ref string) (v1.Image, error) {
	r, err := name.ParseReference(ref)
	if err != nil {
		return nil, fmt.Errorf("image: %q: %w (want registry/repository:tag)", ref, err)
	}
	img, err := remote.Image(r, remote.WithContext(ctx), remote.WithAuthFromKeychain(authn.DefaultKeychain))
	if err != nil {
		return nil, fmt.Errorf("image: pulling %s: %w", ref, err)
	}
	return img, nil
}

// WriteTarball writes the image as a tarball that docker load, podman
// load and ctr images import read, tagged ref.
func WriteTarball(file, ref string, img v1.Image) error {
	tag, err := name.NewTag(ref)
	if err != nil {
		return fmt.Errorf("image: %q: %w (want repository:tag)", ref, err)
	}
	if err := tarball.WriteToFile(file, tag, img); err != nil {
		return fmt.Errorf("image: %w", err)
	}
	return nil
}

// WriteLayout adds the image to the OCI image layout in dir (made if
// missing), annotated with ref as its name.
func WriteLayout(dir, ref string, img v1.Image) error {
	p, err := layout.FromPath(dir)
	if err != nil {
		if p, err = layout.Write(dir, empty.Index); err != nil {
			return fmt.Errorf("image: %w", err)
		}
	}
	ann := map[string]string{"org.opencontainers.image.ref.name": ref}
	if err := p.AppendImage(img, layout.WithAnnotations(ann)); err != nil {
		return fmt.Errorf("image: %w", err)
	}
	return nil
}

// Load reads an image from src: a tarball file (docker save, WriteTarball),
// an OCI layout directory (its first image), or else a registry reference.
func Load(ctx context.Context, src string) (v1.Image, error) {
	st, err := os.Stat(src)
	switch {
	case err == nil && st.IsDir():
		return loadLayout(src)
	case err == nil:
		img, err := tarball.ImageFromPath(src, nil)
		if err != nil {
			return nil, fmt.Errorf("image: %s: %w", src, err)
		}
		return img, nil
	}
	return Pull(ctx, src)
}

func loadLayout(dir string) (v1.Image, error) {
	if _, err := os.Stat(filepath.Join(dir, "index.json")); err != nil {
		return nil, fmt.Errorf("image: %s: not an OCI image layout (no index.json)", dir)
	}
	idx, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		return nil, fmt.Errorf("image: %s: %w", dir, err)
	}
	m, err := idx.IndexManifest()
	if err != nil {
		return nil, fmt.Errorf("image: %s: %w", dir, err)
	}
	if len(m.Manifests) == 0 {
		return nil, errors.New("image: " + dir + ": the layout holds no image")
	}
	return idx.Image(m.Manifests[0].Digest)
}
