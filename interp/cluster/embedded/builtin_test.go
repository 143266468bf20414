package embedded_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// TestBuiltinCommand runs the StatefulSet controller as a controller under
// test, outside the cluster's controller manager that leaves it out.
func TestBuiltinCommand(t *testing.T) {
	t.Parallel() // its own control plane, beside the package's other clusters
	c := embeddedtest.Start(t, embedded.Options{Disable: []string{"statefulset"}})
	client := kubernetes.NewForConfigOrDie(c.RESTConfig())
	ctx := context.Background()
	ns := createNamespace(t, client, "builtin")
	create(t, func() error {
		_, err := client.AppsV1().StatefulSets(ns).Create(ctx, statefulSet("web", 1), metav1.CreateOptions{})
		return err
	})

	argv := c.BuiltinCommand("statefulset", c.Kubeconfig())
	cmd := exec.Command(argv[0], argv[1:]...)
	logPath := filepath.Join(t.TempDir(), "statefulset.log")
	log, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	waitFor(t, "the StatefulSet controller under test to create a Ready pod", func() (bool, error) {
		return countPods(ctx, client, ns, "app=web", podReady) == 1, nil
	})
}
