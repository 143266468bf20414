// Package kindschema generates lang/kinds' table of built-in Kubernetes
// kinds (Generate; go generate ./lang/kinds runs its command gen). The
// table holds the kinds an API server serves, from client-go's schemes,
// kubectl's short and plural names, and each kind's fields, read from the
// k8s.io/api types by reflection. lang imports no Kubernetes library, so it
// reads the table as data. This package's test keeps the table fresh.
//
// It does not check specs: lang/check, lang/lint, lang/ir and lang/manifest
// read the table.
package kindschema
