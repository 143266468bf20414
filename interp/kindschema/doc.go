// Package kindschema writes the field tables of built-in Kubernetes kinds
// that the spec checker (lang/check, kinds.json) uses to find a CEL
// expression or a field path that names a field a kind does not have. It
// reads the Go types of k8s.io/api by reflection, so lang never imports
// Kubernetes libraries; its test holds lang/check/kinds.json equal to what
// Generate writes (SIEVE_UPDATE=1 rewrites the file).
//
// It does not check specs: lang/check reads the table.
package kindschema
