package pipeline

import (
	"errors"
	"syscall"

	"github.com/sievetool/sieve/interp/nospace"
)

// DiskFullError says that a file of the results could not be written for
// want of space: the run stops, since every later plan would fail the
// same way, and keeps the results it has.
type DiskFullError struct {
	Err error
}

// Error says first that the disk is full, and where (nospace).
func (e *DiskFullError) Error() string {
	return nospace.First(e.Err, "free some space and run again; the results written so far are kept").Error()
}

func (e *DiskFullError) Unwrap() error { return e.Err }

// diskFull returns err as a *DiskFullError if it is one or says that the
// disk or the quota is full, else nil.
func diskFull(err error) *DiskFullError {
	var d *DiskFullError
	switch {
	case errors.As(err, &d):
		return d
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return &DiskFullError{Err: err}
	}
	return nil
}

// joinOnce joins errs, each distinct message once and only the first
// full disk: workers that hit it at once say the same.
func joinOnce(errs []error) error {
	seen := map[string]bool{}
	var out []error
	for _, err := range errs {
		key := err.Error()
		if diskFull(err) != nil {
			key = "disk full"
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, err)
		}
	}
	return errors.Join(out...)
}

// withDiskFull is err, as a *DiskFullError if the disk is full.
func withDiskFull(err error) error {
	if d := diskFull(err); d != nil {
		return d
	}
	return err
}
