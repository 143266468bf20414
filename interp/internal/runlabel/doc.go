// Package runlabel names the label that marks what one run of sieve
// created on a cluster it does not own. The existing-cluster backend sets
// it and deletes by it, a run confines its workload to it, and the
// built-in mask leaves it out of comparisons: its value differs from run
// to run.
package runlabel
