package dispatch

import (
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
)

// FuzzResources reads arbitrary --cpu and --memory quantities into a
// worker's requests. It must never panic, and an error must be clear.
// What it accepts is a request the API server takes: more than zero, with
// a memory limit of twice the request.
func FuzzResources(f *testing.F) {
	for _, s := range [][2]string{{"1", "1Gi"}, {"500m", "800Mi"}, {"", ""}, {"-1", "0"}, {"1e3", "1Ei"}, {"abc", "1Gi "}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, cpu, mem string) {
		r, err := (&Campaign{CPU: cpu, Memory: mem}).resources()
		if err != nil {
			hostile.CheckError(t, err, []byte(cpu+mem))
			return
		}
		c, m, l := r.Requests.Cpu(), r.Requests.Memory(), r.Limits.Memory()
		if c.Sign() <= 0 || m.Sign() <= 0 {
			t.Fatalf("cpu %q memory %q: requests %s and %s, not more than zero", cpu, mem, c, m)
		}
		twice := m.DeepCopy()
		twice.Add(*m)
		if l.Cmp(twice) != 0 {
			t.Fatalf("memory %q: limit %s, want twice %s", mem, l, m)
		}
	})
}
