package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// membersPort is the port of the members API on an ensemble's client
// Service.
const membersPort = 8080

// Membership is what the members API answers: the members and the
// generation of the Ensemble that last changed them.
type Membership struct {
	Generation int64    `json:"generation"`
	Members    []string `json:"members"`
}

// MembersAPI is an ensemble's members API, as the controller uses it.
type MembersAPI interface {
	// List returns the ensemble's membership.
	List(ctx context.Context, e *Ensemble) (Membership, error)
	// Add makes member join, on behalf of generation gen of e.
	Add(ctx context.Context, e *Ensemble, member string, gen int64) error
	// Remove makes member leave, on behalf of generation gen of e.
	Remove(ctx context.Context, e *Ensemble, member string, gen int64) error
}

// httpMembers reaches the members API over HTTP at the ensemble's client
// Service by its cluster DNS name.
type httpMembers struct {
	client *http.Client
}

// newHTTPMembers returns the members API client the controller uses.
func newHTTPMembers() *httpMembers {
	return &httpMembers{client: &http.Client{Timeout: 5 * time.Second}}
}

// Host is the address of e's members API: the client Service's cluster
// DNS name and port.
func Host(e *Ensemble) string {
	return fmt.Sprintf("%s.%s.svc.cluster.local:%d", clientService(e), e.Namespace, membersPort)
}

func (m *httpMembers) List(ctx context.Context, e *Ensemble) (Membership, error) {
	var out Membership
	resp, err := m.do(ctx, http.MethodGet, e, "/members")
	if err != nil {
		return out, err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return out, fmt.Errorf("members api %s: %w", Host(e), err)
	}
	return out, nil
}

func (m *httpMembers) Add(ctx context.Context, e *Ensemble, member string, gen int64) error {
	return m.change(ctx, http.MethodPut, e, member, gen)
}

func (m *httpMembers) Remove(ctx context.Context, e *Ensemble, member string, gen int64) error {
	return m.change(ctx, http.MethodDelete, e, member, gen)
}

func (m *httpMembers) change(ctx context.Context, method string, e *Ensemble, member string, gen int64) error {
	path := "/members/" + url.PathEscape(member) + "?generation=" + strconv.FormatInt(gen, 10)
	resp, err := m.do(ctx, method, e, path)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// do sends one request and fails on any status but 2xx.
func (m *httpMembers) do(ctx context.Context, method string, e *Ensemble, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, "http://"+Host(e)+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := m.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("members api: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		resp.Body.Close()
		return nil, fmt.Errorf("members api %s %s: %s", method, req.URL, resp.Status)
	}
	return resp, nil
}
