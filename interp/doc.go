// Package interp holds no code. Its folders group sieve's runtime by role,
// and its test (layers_test.go) holds the import rules between them.
//
//   - pipeline: the stages of a campaign (record, plan, inject, judge).
//   - run: the runtime of one run (proxy, controller, workload, inject,
//     standin, podexec, netns, clusterdns, logcap).
//   - analysis: pure functions over traces (observe, mask, trigger, plan,
//     oracle, leader).
//   - formats: the files sieve writes and reads back (trace, planfile).
//   - report: the renderers and the results layout.
//   - cluster: the backends (embedded, kind, an existing cluster) and the
//     built-in kinds' schema.
//   - campaign: dispatch of a campaign's shards and the worker image.
//   - buildinfo, nospace: leaves that any layer may use.
//   - internal: helpers private to interp.
package interp
