// Command members stands in for the application of the ensemble example:
// the members API of a replicated store (in the manner of ZooKeeper's
// dynamic reconfiguration), served over HTTP at the ensemble's client
// Service. The spec's standin starts it in the controller's private
// network, listening at $STANDIN_ADDR; it keeps its state in memory, so
// every run starts with an empty ensemble.
//
//	GET    /members                       {"generation": G, "members": [NAME, ...]}
//	PUT    /members/NAME?generation=G     NAME joins; the ensemble's generation becomes G
//	DELETE /members/NAME?generation=G     NAME leaves; the ensemble's generation becomes G
//
// The generation is that of the custom resource the controller acted on
// when it last changed the membership. Each request is logged to stdout.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
)

// ensemble is the members API's state.
type ensemble struct {
	mu         sync.Mutex
	Generation int64    `json:"generation"`
	Members    []string `json:"members"`
}

func main() {
	addr := os.Getenv("STANDIN_ADDR")
	if addr == "" {
		addr = "127.0.0.1:8080"
	}
	e := &ensemble{Members: []string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /members", e.list)
	mux.HandleFunc("PUT /members/{name}", e.change)
	mux.HandleFunc("DELETE /members/{name}", e.change)
	log.SetFlags(0)
	log.Printf("members api listening on %s", addr)
	if err := http.ListenAndServe(addr, mux); err != nil {
		fmt.Fprintln(os.Stderr, "members:", err)
		os.Exit(1)
	}
}

// list answers the membership and its generation.
func (e *ensemble) list(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	log.Printf("%s %s from %s: generation %d, members %v", r.Method, r.URL.Path, r.RemoteAddr, e.Generation, e.Members)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(e)
}

// change adds (PUT) or removes (DELETE) a member.
func (e *ensemble) change(w http.ResponseWriter, r *http.Request) {
	gen, err := strconv.ParseInt(r.URL.Query().Get("generation"), 10, 64)
	if err != nil {
		http.Error(w, "generation: want an integer", http.StatusBadRequest)
		return
	}
	name := r.PathValue("name")
	e.mu.Lock()
	defer e.mu.Unlock()
	i := slices.Index(e.Members, name)
	switch {
	case r.Method == http.MethodPut && i < 0:
		e.Members = append(e.Members, name)
	case r.Method == http.MethodDelete && i >= 0:
		e.Members = slices.Delete(e.Members, i, i+1)
	}
	e.Generation = gen
	log.Printf("%s %s generation %d from %s: members now %v", r.Method, r.URL.Path, gen, r.RemoteAddr, e.Members)
	w.WriteHeader(http.StatusNoContent)
}
