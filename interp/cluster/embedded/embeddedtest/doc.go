// Package embeddedtest starts embedded control planes for the end-to-end
// tests of other packages. Binary builds the sieve binary once per test
// process. ControlPlane finds or builds the sieve-controlplane binary that
// runs the cluster's components. It keeps it in the user cache, keyed by
// the hash of its sources, where the sieve binary finds it too. Start
// starts a cluster with it and stops the cluster when the test ends.
// CleanCopy copies the checkout's files to a directory of the user cache,
// the same for each run, for a test that runs a command in a clean clone.
// NeedKubernetes121 skips a test of the Kubernetes 1.21 line unless
// Kubernetes121Env asks for it.
//
// The environment variable SIEVE_TEST_BINARY (BinaryEnv) names a prebuilt
// sieve binary to use instead of building one, and SIEVE_CONTROLPLANE a
// prebuilt control-plane binary.
package embeddedtest
