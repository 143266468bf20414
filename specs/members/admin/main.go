// Command admin stands in for the application of the members example: the
// admin API of a replicated key-value store, served over HTTP at the
// store's admin Service, through which the operator adds and removes the
// store's members. The spec's standin starts it in the controller's
// private network, listening at $STANDIN_ADDR; it keeps the member list in
// memory, so every run starts with an empty store.
//
//	GET    /members        {"members": [NAME, ...]}, sorted
//	PUT    /members/NAME   NAME joins (204; a member already there stays)
//	DELETE /members/NAME   NAME leaves (204; removing a non-member is no error)
//
// Each request is logged to stdout with the member list after it.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"slices"
	"sync"
)

// store is the admin API's state: the store's member list.
type store struct {
	mu      sync.Mutex
	members []string
}

func main() {
	addr := os.Getenv("STANDIN_ADDR")
	if addr == "" {
		addr = "127.0.0.1:8080"
	}
	s := &store{members: []string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /members", s.list)
	mux.HandleFunc("PUT /members/{name}", s.join)
	mux.HandleFunc("DELETE /members/{name}", s.leave)
	log.SetFlags(log.Lmicroseconds)
	log.Printf("admin api listening on %s", addr)
	if err := http.ListenAndServe(addr, mux); err != nil {
		fmt.Fprintln(os.Stderr, "admin:", err)
		os.Exit(1)
	}
}

// list answers the member list.
func (s *store) list(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	log.Printf("%s %s: members %v", r.Method, r.URL.Path, s.members)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string][]string{"members": s.members})
}

// join adds a member.
func (s *store) join(w http.ResponseWriter, r *http.Request) {
	s.change(w, r, func(name string) {
		if !slices.Contains(s.members, name) {
			s.members = append(s.members, name)
			slices.Sort(s.members)
		}
	})
}

// leave removes a member.
func (s *store) leave(w http.ResponseWriter, r *http.Request) {
	s.change(w, r, func(name string) {
		s.members = slices.DeleteFunc(s.members, func(m string) bool { return m == name })
	})
}

// change applies f to the member the request names and answers 204.
func (s *store) change(w http.ResponseWriter, r *http.Request, f func(name string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(r.PathValue("name"))
	log.Printf("%s %s: members now %v", r.Method, r.URL.Path, s.members)
	w.WriteHeader(http.StatusNoContent)
}
