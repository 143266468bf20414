// Package runlabel names the label that marks what one run of sieve
// created on a cluster it does not own, and the annotation that lists the
// runs that use a CRD one of them created. The existing-cluster backend
// sets the label and deletes by it, a run confines its workload to it,
// and the built-in mask leaves both out of comparisons: their values
// differ from run to run.
package runlabel
