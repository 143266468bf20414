package pipeline

// SplitAfter is splitAfter, for the suffix measurement (TestSuffixReplay).
var SplitAfter = splitAfter
