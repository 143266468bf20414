package component

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// pollInterval is how often a waiting component asks the API server.
const pollInterval = 25 * time.Millisecond

// waitAPI polls path of the API server named by kubeconfig until it
// answers 200.
func waitAPI(ctx context.Context, kubeconfig, path string) error {
	if kubeconfig == "" {
		return fmt.Errorf("%s and %s need --kubeconfig", FlagWaitHealthy, FlagWaitServing)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return fmt.Errorf("reading kubeconfig: %w", err)
	}
	cfg.Timeout = time.Second
	client, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return fmt.Errorf("client for %s: %w", cfg.Host, err)
	}
	for {
		if probe(ctx, client, cfg.Host+path) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pollInterval):
		}
	}
}

func probe(ctx context.Context, client *http.Client, url string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
