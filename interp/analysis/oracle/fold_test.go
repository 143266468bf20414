package oracle

import (
	"testing"

	"github.com/sievetool/sieve/interp/formats/trace"
)

func TestFoldKey(t *testing.T) {
	cases := []struct {
		name, gen, want string
	}{
		{"web-7d9f8-x2kq1", "web-7d9f8-", "web-7d9f8-*"},
		{"pvc-627aedb5-142e-4aa8-94d0-4be601618fec", "", "pvc-*"},
		{"ds-0", "", ""},
	}
	for _, c := range cases {
		obj := map[string]any{"metadata": map[string]any{"name": c.name, "generateName": c.gen}}
		got, ok := foldKey(trace.Key{Kind: "x", Name: c.name}, obj)
		if (c.want != "") != ok || (ok && got.Name != c.want) {
			t.Errorf("foldKey(%s) = %v, %v; want %q", c.name, got, ok, c.want)
		}
	}
}
