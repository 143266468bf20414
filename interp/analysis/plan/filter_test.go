package plan

import (
	"testing"

	"github.com/sievetool/sieve/interp/analysis/leader"
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// TestFilterLeaderLocks: std/faults' lease/*/* leaves out every
// leader-election lock, a ConfigMap or Endpoints that carries the leader
// annotation (controller-runtime's older lock) as well as a Lease, and
// no other ConfigMap; a filter with a namespace keeps to it.
func TestFilterLeaderLocks(t *testing.T) {
	lock := map[string]any{"metadata": map[string]any{"name": "op-lock", "annotations": map[string]any{leader.Annotation: `{"holderIdentity":"a"}`}}}
	plain := map[string]any{"metadata": map[string]any{"name": "ds-config"}, "data": map[string]any{"x": "1"}}
	it := func(kind, name string, obj, prev map[string]any) *item {
		return &item{Observed: observe.Observed{Key: trace.Key{Kind: kind, Namespace: "default", Name: name}, Verb: "update", Object: obj, Prev: prev}}
	}
	leases := ir.Filter{Kind: "lease", Namespace: "*", Name: "*"}
	for _, tc := range []struct {
		f    ir.Filter
		it   *item
		want bool
	}{
		{leases, it("lease", "op-lock", map[string]any{}, nil), true},
		{leases, it("configmap", "op-lock", lock, nil), true},
		{leases, it("endpoints", "op-lock", nil, lock), true}, // its deletion
		{leases, it("configmap", "ds-config", plain, nil), false},
		{ir.Filter{Kind: "lease", Namespace: "other", Name: "*"}, it("configmap", "op-lock", lock, nil), false},
		{ir.Filter{Kind: "configmap", Namespace: "*", Name: "*"}, it("configmap", "ds-config", plain, nil), true},
	} {
		if got := matchFilter(tc.f, tc.it); got != tc.want {
			t.Errorf("filter %+v on %s: %v, want %v", tc.f, tc.it.Key, got, tc.want)
		}
	}
}
