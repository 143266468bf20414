package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sievetool/sieve/interp/internal/nofollow"
	"github.com/sievetool/sieve/interp/run/session"
)

// isUnhealthy reports whether err says the run's infrastructure failed.
func isUnhealthy(err error) bool {
	var u *session.UnhealthyError
	return errors.As(err, &u)
}

// setAside moves what a run left in dir, except the plan, into
// dir/unhealthy-N, so that the plan's retry writes into dir afresh and
// the failed attempt stays to be looked at. It returns the new directory.
func setAside(dir, keep string) (string, error) {
	var aside string
	for i := 1; ; i++ {
		aside = filepath.Join(dir, "unhealthy-"+strconv.Itoa(i))
		if _, err := os.Stat(aside); errors.Is(err, os.ErrNotExist) {
			break
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	if err := os.Mkdir(aside, nofollow.DirMode); err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.Name() == keep || strings.HasPrefix(e.Name(), "unhealthy-") {
			continue
		}
		if err := os.Rename(filepath.Join(dir, e.Name()), filepath.Join(aside, e.Name())); err != nil {
			return "", err
		}
	}
	return aside, nil
}
