//go:build !unix

package cli

// stdioBroken is false where there is no SIGPIPE.
func stdioBroken() bool { return false }
