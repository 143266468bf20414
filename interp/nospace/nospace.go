package nospace

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
)

// logText is what a Go program's log says of a write that found the disk
// full (the text of syscall.ENOSPC).
const logText = "no space left on device"

// Error is a failure for want of space in Dir, found in a log.
type Error struct {
	// Dir is the directory where space ran out.
	Dir string
	// Hint says what to do (default: "free some space").
	Hint string
	// Err is what failed.
	Err error
}

func (e *Error) Error() string { return e.lead() + ": " + e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, syscall.ENOSPC) hold for a failure found in a
// log, as for one of sieve's own writes.
func (e *Error) Is(target error) bool { return target == syscall.ENOSPC }

// lead is the message's first part: "no space left on device in DIR
// (HINT)".
func (e *Error) lead() string {
	s := logText
	if errors.Is(e.Err, syscall.EDQUOT) {
		s = syscall.EDQUOT.Error()
	}
	if e.Dir != "" {
		s += " in " + e.Dir
	}
	if e.Hint == "" {
		return s + " (free some space)"
	}
	return s + " (" + e.Hint + ")"
}

// InLog returns err as an *Error in dir with hint when log (a component's
// output) says that a write found the disk full, else err.
func InLog(err error, dir, hint, log string) error {
	if !strings.Contains(log, logText) {
		return err
	}
	return &Error{Dir: dir, Hint: hint, Err: err}
}

// First returns err with a message that says first that the disk is
// full, when err holds an *Error, or a write that failed with ENOSPC or
// EDQUOT (its directory taken from the failed path, with hint); else err.
// It can be applied more than once.
func First(err error, hint string) error {
	var e *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		e = &Error{Dir: pathDir(err), Hint: hint, Err: err}
		if strings.HasPrefix(err.Error(), e.lead()) {
			return err
		}
		// The lead says it: the errno's text at the end of the failed
		// write is dropped.
		msg := err.Error()
		for _, errno := range []error{syscall.ENOSPC, syscall.EDQUOT} {
			msg = strings.Replace(msg, ": "+errno.Error(), "", 1)
		}
		return &first{msg: e.lead() + ": " + msg, err: err}
	default:
		return err
	}
	msg := err.Error()
	if strings.HasPrefix(msg, e.lead()) {
		return err
	}
	return &first{msg: e.lead() + ": " + strings.Replace(msg, e.lead()+": ", "", 1), err: err}
}

// first is an error whose message was reordered by First.
type first struct {
	msg string
	err error
}

func (f *first) Error() string { return f.msg }
func (f *first) Unwrap() error { return f.err }

// pathDir is the directory of the file a failed write names, if any.
func pathDir(err error) string {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return ""
	}
	return filepath.Dir(pe.Path)
}
