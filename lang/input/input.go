package input

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// The limits, in bytes, for each kind of file. Real files are far smaller;
// the limits keep a huge, endless or hostile file from exhausting memory
// or taking a parser minutes.
const (
	// SpecLimit bounds a .sieve or .cue spec file.
	SpecLimit = 2 << 20
	// ManifestLimit bounds a manifest or CRD file that a spec names (large
	// operators ship CRD files of a few megabytes).
	ManifestLimit = 16 << 20
	// KubeconfigLimit bounds a kubeconfig file (--kubeconfig).
	KubeconfigLimit = 16 << 20
	// PlanLimit bounds a plan file.
	PlanLimit = 16 << 20
	// ResultLimit bounds a JSON file of a results directory (summary,
	// verdict, counts).
	ResultLimit = 64 << 20
	// TraceLimit bounds a trace file.
	TraceLimit = 256 << 20
	// ArtifactLimit bounds the files of one artefact that sieve collect
	// pulls (a shard's results), together.
	ArtifactLimit = 4 << 30
)

// TooLargeError is the error of a read that went past its limit.
type TooLargeError struct {
	Name  string // the file, as given
	Limit int64
}

func (e *TooLargeError) Error() string {
	msg := fmt.Sprintf("file too large: more than %s (the limit)", Size(e.Limit))
	if e.Name == "" {
		return msg
	}
	return e.Name + ": " + msg
}

// ErrTooLarge matches every *TooLargeError with errors.Is.
var ErrTooLarge = errors.New("file too large")

// Is makes errors.Is(err, ErrTooLarge) true for a *TooLargeError.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// ReadFile reads the file name, at most limit bytes. A longer file is a
// *TooLargeError; other errors are those of os.Open and Read.
func ReadFile(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, name, limit)
}

// ReadAll reads r to its end, at most limit bytes; more is a
// *TooLargeError naming name.
func ReadAll(r io.Reader, name string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Name: name, Limit: limit}
	}
	return b, nil
}

// Reader returns a reader of r that fails with a *TooLargeError naming
// name (which may be empty when the caller names the file) once more than
// limit bytes have been read, for formats read as a stream.
func Reader(r io.Reader, name string, limit int64) io.Reader {
	return &limited{r: r, name: name, left: limit + 1, limit: limit}
}

type limited struct {
	r     io.Reader
	name  string
	left  int64 // bytes that may still be read, one past the limit
	limit int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, &TooLargeError{Name: l.name, Limit: l.limit}
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left <= 0 {
		return n - 1, &TooLargeError{Name: l.name, Limit: l.limit}
	}
	return n, err
}

// Size renders a byte count the way the limits are written: 2 MiB.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
