package embedded_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// settle is how long a cluster runs before its memory is read.
const settle = 3 * time.Second

// BenchmarkColdStart measures Start: etcd, API server, controller manager,
// scheduler and node simulator, all ready. It reports the processor time
// the components used to get there (cpu-s/op, independent of other load
// on the machine), and memory. pss-MB is the total proportional set size
// (shared pages divided among the processes that share them) once the
// cluster has settled. peak-rss-MB sums each process's peak RSS, counting
// the pages of the binary that the five processes share five times (an
// upper bound). BenchmarkColdStartPeakPSS measures the peak PSS, which
// costs too much to sample while the start is timed. The first start of a
// control-plane build writes its etcd seed, which every later start begins
// from; the benchmark measures those, making the seed first if there is
// none. Besides the mean (ns/op) it reports the median start (median-s),
// which one start slowed by the machine moves less.
func BenchmarkColdStart(b *testing.B) {
	var mem embedded.Usage
	var cpu time.Duration
	starts := coldStarts(b, nil, func(c *embedded.Cluster) {
		atReady, err := c.Usage()
		if err != nil {
			b.Fatal(err)
		}
		cpu += atReady.CPU
		time.Sleep(settle)
		m, err := c.Usage()
		if err != nil {
			b.Fatal(err)
		}
		mem.PeakRSS, mem.PSS = max(mem.PeakRSS, m.PeakRSS), max(mem.PSS, m.PSS)
	})
	slices.Sort(starts)
	b.ReportMetric(starts[len(starts)/2].Seconds(), "median-s")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(mem.PeakRSS)/(1<<20), "peak-rss-MB")
	b.ReportMetric(float64(mem.PSS)/(1<<20), "pss-MB")
}

// BenchmarkColdStartPeakPSS reports peak-pss-MB: the largest total PSS of
// the components, sampled every 20ms from the start until the cluster has
// settled, the cluster's real peak. Reading every component's
// smaps_rollup that often takes processor time from the start, so its
// ns/op is not the start's.
func BenchmarkColdStartPeakPSS(b *testing.B) {
	var peak int64
	var sampler *pssSampler
	coldStarts(b, func() { sampler = samplePSS() }, func(*embedded.Cluster) {
		time.Sleep(settle)
		peak = max(peak, sampler.stop())
	})
	b.ReportMetric(float64(peak)/(1<<20), "peak-pss-MB")
}

// coldStarts times b.N starts of a cluster, each followed by ready (with
// the cluster up, untimed) and a stop, and returns how long each start
// took; before, unless nil, runs before each start.
func coldStarts(b *testing.B, before func(), ready func(*embedded.Cluster)) []time.Duration {
	bin := embeddedtest.ControlPlane(b)
	if p := embedded.SeedPath(bin); p != "" {
		if _, err := os.Stat(p); err != nil {
			embeddedtest.Start(b, embedded.Options{Binary: bin}).Stop()
		}
	}
	var starts []time.Duration
	for b.Loop() {
		c := embedded.New(embedded.Options{Binary: bin})
		if before != nil {
			before()
		}
		start := time.Now()
		if err := c.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		starts = append(starts, time.Since(start))
		b.StopTimer()
		ready(c)
		if err := c.Stop(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	return starts
}

// pssSampler keeps the largest total PSS of this process's children (the
// cluster's components) seen while it runs.
type pssSampler struct {
	done chan struct{}
	peak chan int64
}

func samplePSS() *pssSampler {
	s := &pssSampler{done: make(chan struct{}), peak: make(chan int64)}
	go func() {
		var peak int64
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, childrenPSS())
			select {
			case <-s.done:
				s.peak <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

// stop ends sampling and returns the peak in bytes.
func (s *pssSampler) stop() int64 {
	close(s.done)
	return <-s.peak
}

// childrenPSS sums the PSS of the processes whose parent is this one.
func childrenPSS() int64 {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var total int64
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// Fields after the command name: state ppid ...
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 2 || f[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		rollup, err := os.ReadFile(filepath.Join(filepath.Dir(path), "smaps_rollup"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(rollup), "\n") {
			if rest, ok := strings.CutPrefix(line, "Pss:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				total += kb << 10
			}
		}
	}
	return total
}

// BenchmarkReset measures Reset after a plan-sized amount of work: a
// namespace with a running StatefulSet (pods, claims, volumes) and fifty
// config maps.
func BenchmarkReset(b *testing.B) {
	c := embeddedtest.Start(b, embedded.Options{})
	client := kubernetes.NewForConfigOrDie(c.RESTConfig())
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		populate(b, ctx, client)
		b.StartTimer()
		if err := c.Reset(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRestart measures the alternative to Reset: Stop, then Start.
func BenchmarkRestart(b *testing.B) {
	bin := embeddedtest.ControlPlane(b)
	c := embedded.New(embedded.Options{Binary: bin})
	if err := c.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := c.Stop(); err != nil {
			b.Fatal(err)
		}
		c = embedded.New(embedded.Options{Binary: bin})
		if err := c.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	_ = c.Stop()
}

func populate(b *testing.B, ctx context.Context, client kubernetes.Interface) {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "bench"}}
	if _, err := client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		b.Fatal(err)
	}
	if _, err := client.AppsV1().StatefulSets("bench").Create(ctx, statefulSet("web", 2), metav1.CreateOptions{}); err != nil {
		b.Fatal(err)
	}
	for i := range 50 {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i)}}
		if _, err := client.CoreV1().ConfigMaps("bench").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	deadline := time.Now().Add(waitTimeout)
	for countPods(ctx, client, "bench", "app=web", podReady) != 2 {
		if time.Now().After(deadline) {
			b.Fatal("bench pods not ready")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
