package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// agentPort is the port of the agent in every node's pod.
const agentPort = 4567

// Agents are the nodes' agents, as the controller calls them: at a pod's
// IP.
type Agents interface {
	// Mode returns the node's mode: NORMAL, LEAVING or DECOMMISSIONED.
	Mode(ctx context.Context, podIP string) (string, error)
	// Decommission makes the node start leaving the ring.
	Decommission(ctx context.Context, podIP string) error
	// Ring returns the ring as the node sees it: "NAME:UN NAME:DN ...".
	Ring(ctx context.Context, podIP string) (string, error)
}

// httpAgents calls the agents over HTTP at http://POD_IP:4567.
type httpAgents struct{ client *http.Client }

func newHTTPAgents() *httpAgents { return &httpAgents{client: &http.Client{Timeout: 5 * time.Second}} }

func (a *httpAgents) Mode(ctx context.Context, ip string) (string, error) {
	b, err := a.do(ctx, http.MethodGet, ip, "/state")
	if err != nil {
		return "", err
	}
	var st struct{ Mode string }
	if err := json.Unmarshal(b, &st); err != nil {
		return "", fmt.Errorf("agent %s: %w", ip, err)
	}
	return st.Mode, nil
}

func (a *httpAgents) Decommission(ctx context.Context, ip string) error {
	_, err := a.do(ctx, http.MethodPost, ip, "/decommission")
	return err
}

func (a *httpAgents) Ring(ctx context.Context, ip string) (string, error) {
	b, err := a.do(ctx, http.MethodGet, ip, "/ring")
	return strings.TrimSpace(string(b)), err
}

// do calls the agent at ip and returns the body of a 2xx answer.
func (a *httpAgents) do(ctx context.Context, method, ip, path string) ([]byte, error) {
	url := "http://" + net.JoinHostPort(ip, strconv.Itoa(agentPort)) + path
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", url, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("agent %s: %s: %s", url, resp.Status, strings.TrimSpace(string(b)))
	}
	return b, nil
}
