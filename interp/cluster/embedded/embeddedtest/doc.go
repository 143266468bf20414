// Package embeddedtest starts embedded control planes for end-to-end tests
// of other packages. Binary builds the sieve binary once per test process;
// Start starts a cluster with it and stops the cluster when the test ends.
//
// The environment variable SIEVE_TEST_BINARY names a prebuilt sieve binary
// to use instead of building one.
package embeddedtest
