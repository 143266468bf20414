// Package report renders a results directory that interp/formats/results
// loaded: a terminal summary (Text), JSON, JUnit XML for CI, an HTML page
// with a timeline picture of each failing run, and the "time went to"
// lines that sum where runs' time went.
//
// It does not read or write the directory (interp/formats/results does),
// run plans or judge them.
package report
