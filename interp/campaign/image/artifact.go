package image

import (
	"archive/tar"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/types"

	"github.com/sievetool/sieve/interp/internal/nofollow"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/input"
)

// ArtifactType is the config media type of the artefacts PushDir writes:
// a directory as one layer, not an image to run.
const ArtifactType types.MediaType = "application/vnd.sieve.dir.v1+json"

// PushDir pushes the files below dir as an artefact tagged ref, annotated
// with ann, and returns its reference by digest.
func PushDir(ctx context.Context, dir, ref string, ann map[string]string) (string, error) {
	entries, err := DirEntries(dir, "", nil)
	if err != nil {
		return "", err
	}
	img, err := Build(Options{Layers: [][]Entry{entries}})
	if err != nil {
		return "", err
	}
	img = mutate.ConfigMediaType(img, ArtifactType)
	if len(ann) > 0 {
		img = mutate.Annotations(img, ann).(v1.Image)
	}
	return Push(ctx, img, ref)
}

// PullDir pulls the artefact (or image) ref and writes its files below
// dir.
func PullDir(ctx context.Context, ref, dir string) error {
	img, err := Pull(ctx, ref)
	if err != nil {
		return err
	}
	return Extract(img, dir)
}

// Extract writes the regular files and directories of the image's
// flattened file system below dir, for their owner only (they are
// results, which can hold the cluster's data). Names that would leave dir,
// and a symbolic link already below dir where a file or folder goes, are
// refused, and so are files past input.ArtifactLimit together.
func Extract(img v1.Image, dir string) error {
	rc := mutate.Extract(img)
	defer rc.Close()
	return extractTar(rc, dir, input.ArtifactLimit)
}

// extractTar writes the files of the tar stream r below dir, as Extract,
// at most limit bytes of them together.
func extractTar(r io.Reader, dir string, limit int64) error {
	tr := tar.NewReader(r)
	left := limit
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("image: extracting: %w", err)
		}
		if h.Typeflag == tar.TypeReg {
			if left -= h.Size; left < 0 {
				return fmt.Errorf("image: extracting: %w (at %s)", &input.TooLargeError{Name: "the artefact's files", Limit: limit}, diag.Quote(h.Name))
			}
		}
		if err := extractOne(tr, h, dir); err != nil {
			return err
		}
	}
}

func extractOne(r io.Reader, h *tar.Header, dir string) error {
	name := filepath.Clean(filepath.FromSlash(h.Name))
	if filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, ".."+string(filepath.Separator)) {
		return fmt.Errorf("image: extracting: %q leaves the directory", h.Name)
	}
	p := filepath.Join(dir, name)
	switch h.Typeflag {
	case tar.TypeDir:
		return nofollow.MkdirAll(dir, p)
	case tar.TypeReg:
		if err := nofollow.MkdirAll(dir, filepath.Dir(p)); err != nil {
			return err
		}
		f, err := nofollow.Create(p)
		if err != nil {
			return fmt.Errorf("image: extracting: %w", err)
		}
		// The owner's bits of the file's mode, readable and writable.
		err = f.Chmod(os.FileMode(h.Mode).Perm()&0o700 | 0o600)
		if err == nil {
			_, err = io.Copy(f, r)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	return nil // links and devices: not needed by sieve's artefacts
}
