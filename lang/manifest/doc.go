// Package manifest checks the Kubernetes manifest files that specs name
// before anything runs: the manifests that workloads apply and the CRD
// files of controllers. It reads them far enough to check them. They must
// be valid YAML (or JSON), and every document an object with apiVersion,
// kind and metadata.name. YAML aliases must stay within a bound, and CRD
// files must hold CustomResourceDefinitions.
//
// Both front ends call it, so a broken manifest is a `sieve check` error
// at the spec line that names it. It knows which kinds a cluster serves
// (Kinds: the built-in ones from lang/kinds and those that CRDs define),
// and reads a CRD's names, scope and each version's openAPIV3Schema (CRD),
// which the field lint and explore read. Decode gives whole objects as
// the API server reads them; the interpreter applies them.
package manifest
