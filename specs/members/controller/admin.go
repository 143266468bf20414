package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// adminPort is the port of the admin API on a store's admin Service.
const adminPort = 8080

// AdminAPI is a store's admin API, as the controller uses it.
type AdminAPI interface {
	// Members returns the store's member list.
	Members(ctx context.Context, s *Store) ([]string, error)
	// Join makes member join the store.
	Join(ctx context.Context, s *Store, member string) error
	// Remove makes member leave the store: the others stop counting it
	// in their quorum and stop replicating to it.
	Remove(ctx context.Context, s *Store, member string) error
}

// httpAdmin reaches the admin API over HTTP at the store's admin Service
// by its cluster DNS name.
type httpAdmin struct {
	client *http.Client
}

// newHTTPAdmin returns the admin API client the controller uses.
func newHTTPAdmin() *httpAdmin {
	return &httpAdmin{client: &http.Client{Timeout: 5 * time.Second}}
}

// Host is the address of s's admin API: the admin Service's cluster DNS
// name and port.
func Host(s *Store) string {
	return fmt.Sprintf("%s.%s.svc.cluster.local:%d", adminService(s), s.Namespace, adminPort)
}

func (a *httpAdmin) Members(ctx context.Context, s *Store) ([]string, error) {
	b, err := a.do(ctx, http.MethodGet, s, "/members")
	if err != nil {
		return nil, err
	}
	var out struct {
		Members []string `json:"members"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("admin api %s: %w", Host(s), err)
	}
	return out.Members, nil
}

func (a *httpAdmin) Join(ctx context.Context, s *Store, member string) error {
	_, err := a.do(ctx, http.MethodPut, s, "/members/"+url.PathEscape(member))
	return err
}

func (a *httpAdmin) Remove(ctx context.Context, s *Store, member string) error {
	_, err := a.do(ctx, http.MethodDelete, s, "/members/"+url.PathEscape(member))
	return err
}

// do sends one request and returns the body of a 2xx answer; any other
// status, and a connection that fails, is an error.
func (a *httpAdmin) do(ctx context.Context, method string, s *Store, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, "http://"+Host(s)+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("admin api: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("admin api %s %s: %w", method, req.URL, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("admin api %s %s: %s: %s", method, req.URL, resp.Status, strings.TrimSpace(string(b)))
	}
	return b, nil
}
