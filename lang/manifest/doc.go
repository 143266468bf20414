// Package manifest reads the Kubernetes manifest files that specs name —
// manifests applied by workloads and CRD files of controllers — far enough
// to check them before anything runs: valid YAML (or JSON), every document
// an object with apiVersion, kind and metadata.name, YAML aliases within a
// bound, and CRD files holding CustomResourceDefinitions.
//
// Both front ends call it, so a broken manifest is a `sieve check` error at
// the spec line that names it. It knows which kinds a cluster serves
// (Kinds: the built-in ones from lang/kinds, and those CRDs define), but
// not their schemas; the interpreter decodes and applies the objects.
package manifest
