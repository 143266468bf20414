// Package kindschema generates lang/kinds' table of built-in Kubernetes
// kinds (Generate; go generate ./lang/kinds runs its command gen). The
// table holds the kinds an API server serves, from client-go's schemes,
// kubectl's short and plural names, and each kind's fields, read from the
// k8s.io/api types by reflection; GenerateDocs the descriptions of those
// fields, from the types' SwaggerDoc, for editors. lang imports no
// Kubernetes library, so it reads both as data. This package's tests keep
// them fresh.
//
// It does not check specs: lang/check, lang/lint, lang/ir and lang/manifest
// read the table.
package kindschema
