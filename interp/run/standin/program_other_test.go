//go:build !linux

package standin

// testProgram does nothing: the daemon stand-in is Linux's.
func testProgram() {}
