package proctree

import "errors"

// ErrUnsupported is wrapped by Check's error where PID namespaces are not
// available (not Linux, not root).
var ErrUnsupported = errors.ErrUnsupported
