// Package sessiontest is the harness of the end-to-end tests that make
// runs, those of interp/run/session and of interp/pipeline's stages: one
// embedded control plane shared by the tests of a process (Shared), the
// test binary as the controllers' helper (Main), and a spec's test loaded
// and shortened for a direct run. Only tests import it.
package sessiontest
