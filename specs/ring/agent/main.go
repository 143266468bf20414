// Command agent stands in for the per-pod agent of the ring example: the
// sidecar of a Cassandra-like store that each node's pod runs, which the
// operator calls at http://POD_IP:4567 (as instaclustr's
// cassandra-operator calls its sidecar). One process serves every pod:
// the spec's stand-in for "pods app=ring-node" makes sieve relay each
// call to a pod's IP here from that IP, and the pod map ($STANDIN_PODS,
// "IP NAMESPACE/NAME UID" per line) names the pod. It keeps the ring in
// memory, so every run starts with an empty one.
//
//	GET  /state         {"node": NAME, "mode": "NORMAL" | "LEAVING" | "DECOMMISSIONED"}
//	POST /decommission  the node starts leaving the ring (202); it has left a second later
//	GET  /ring          the ring as this node sees it: "NAME:UN NAME:UL NAME:DN", sorted
//
// A node joins the ring (UN, up and normal) when its pod appears in the
// pod map; a pod of the same name with a new UID takes over its node's
// place. A node whose pod goes away before it has left stays in the ring,
// down (DN), until a pod of its name comes back: the ring cannot lose a
// member it was not told about. Each call is logged to stdout with the
// pod it reached.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// node is one member of the ring, or a pod's node that has left it.
type node struct {
	uid  string // of the pod it runs in
	mode string // NORMAL, LEAVING, DECOMMISSIONED
	down bool   // its pod is gone
}

// ring is the agents' shared state.
type ring struct {
	file  string // the pod map
	mu    sync.Mutex
	nodes map[string]*node  // by pod name
	ips   map[string]string // pod IP -> pod name
}

func main() {
	r := &ring{file: os.Getenv("STANDIN_PODS"), nodes: map[string]*node{}, ips: map[string]string{}}
	go r.follow()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /state", r.state)
	mux.HandleFunc("POST /decommission", r.decommission)
	mux.HandleFunc("GET /ring", r.list)
	log.SetFlags(log.Lmicroseconds)
	log.Printf("agent for pods %s listening on %s", os.Getenv("STANDIN_SELECTOR"), os.Getenv("STANDIN_ADDR"))
	log.Fatal(http.ListenAndServe(os.Getenv("STANDIN_ADDR"), mux))
}

// follow rereads the pod map every 50ms and applies it to the ring.
func (r *ring) follow() {
	for ; ; time.Sleep(50 * time.Millisecond) {
		r.mu.Lock()
		r.reload()
		r.mu.Unlock()
	}
}

// reload reads the pod map, joins its pods to the ring and marks the
// nodes whose pod is gone. The caller holds r.mu.
func (r *ring) reload() {
	b, err := os.ReadFile(r.file)
	if err != nil {
		return
	}
	podMap := string(b)
	pods := map[string]string{} // name -> uid
	r.ips = map[string]string{}
	for _, line := range strings.Split(podMap, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		_, name, _ := strings.Cut(f[1], "/")
		pods[name], r.ips[f[0]] = f[2], name
	}
	for name, uid := range pods {
		n := r.nodes[name]
		if n == nil || n.uid != uid {
			if n == nil || n.down || n.mode == "DECOMMISSIONED" {
				log.Printf("%s joins the ring (pod %s)", name, uid)
			}
			r.nodes[name] = &node{uid: uid, mode: "NORMAL"}
		}
	}
	for name, n := range r.nodes {
		if _, ok := pods[name]; ok {
			continue
		}
		if n.mode == "DECOMMISSIONED" {
			delete(r.nodes, name)
		} else if !n.down {
			log.Printf("%s is down: its pod went away while it was %s", name, n.mode)
			n.down = true
		}
	}
}

// caller is the node whose pod the request reached: sieve relays it from
// the pod's IP.
func (r *ring) caller(req *http.Request) (string, *node) {
	ip, _, _ := net.SplitHostPort(req.RemoteAddr)
	if _, ok := r.ips[ip]; !ok {
		r.reload() // sieve wrote the map before it served the pod
	}
	name := r.ips[ip]
	return name, r.nodes[name]
}

func (r *ring) state(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	name, n := r.caller(req)
	if n == nil {
		http.Error(w, "no node here", http.StatusServiceUnavailable)
		return
	}
	log.Printf("%s: state %s", name, n.mode)
	_ = json.NewEncoder(w).Encode(map[string]string{"node": name, "mode": n.mode})
}

func (r *ring) decommission(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	name, n := r.caller(req)
	if n == nil {
		http.Error(w, "no node here", http.StatusServiceUnavailable)
		return
	}
	log.Printf("%s: decommission (was %s)", name, n.mode)
	if n.mode == "NORMAL" {
		n.mode = "LEAVING"
		time.AfterFunc(time.Second, func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.nodes[name] == n && n.mode == "LEAVING" {
				n.mode = "DECOMMISSIONED"
				log.Printf("%s has left the ring", name)
			}
		})
	}
	w.WriteHeader(http.StatusAccepted)
}

func (r *ring) list(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	name, _ := r.caller(req)
	var out []string
	for m, n := range r.nodes {
		switch {
		case n.down:
			out = append(out, m+":DN")
		case n.mode == "NORMAL":
			out = append(out, m+":UN")
		case n.mode == "LEAVING":
			out = append(out, m+":UL")
		}
	}
	slices.Sort(out)
	log.Printf("%s: ring %s", name, strings.Join(out, " "))
	fmt.Fprintln(w, strings.Join(out, " "))
}
