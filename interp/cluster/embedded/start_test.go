package embedded_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

func TestStartServesAPI(t *testing.T) {
	c := embeddedtest.Start(t, embedded.Options{})
	client := kubernetes.NewForConfigOrDie(c.RESTConfig())
	nodes, err := client.CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes.Items) != 1 {
		t.Fatalf("got %d nodes, want 1", len(nodes.Items))
	}
}
