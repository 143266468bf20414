package embedded_test

import (
	"context"
	"fmt"
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
// the components used to get there (cpu-s/op, independent of other load on
// the machine) and the memory of the settled cluster: peak-rss-MB sums each process's peak RSS (shared pages
// of the binary counted once per process), pss-MB sums the proportional
// set sizes (shared pages divided).
func BenchmarkColdStart(b *testing.B) {
	bin := embeddedtest.Binary(b)
	var mem embedded.Usage
	var cpu time.Duration
	for b.Loop() {
		c := embedded.New(embedded.Options{Binary: bin})
		if err := c.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
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
		if err := c.Stop(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(mem.PeakRSS)/(1<<20), "peak-rss-MB")
	b.ReportMetric(float64(mem.PSS)/(1<<20), "pss-MB")
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
	bin := embeddedtest.Binary(b)
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
