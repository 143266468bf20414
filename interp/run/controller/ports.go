package controller

import (
	"fmt"
	"net"
	"strconv"

	"github.com/sievetool/sieve/lang/ir"
)

// ports are the host ports a runner picked for the port variables
// (ir.PortRefs) its controller's args, env and readiness URL name, by
// index. They are free TCP ports of the host, picked once per runner and
// kept across restarts. Controllers that share the host network
// (--host-network, or no network namespaces) in parallel workers so bind
// ports of their own, where a fixed one would collide.
type ports map[int]int

// pickPorts picks a free port for index 0 and for every index texts name.
// The listeners that found them stay open until all are picked, so the
// ports are distinct.
func pickPorts(texts []string) (ports, error) {
	want := map[int]bool{0: true}
	for _, s := range texts {
		idx, _ := ir.PortRefs(s)
		for _, i := range idx {
			want[i] = true
		}
	}
	out := ports{}
	for i := range want {
		l, err := net.Listen("tcp", ":0")
		if err != nil {
			return nil, fmt.Errorf("picking a port for ${SIEVE_PORT_%d}: %w", i, err)
		}
		defer l.Close()
		out[i] = l.Addr().(*net.TCPAddr).Port
	}
	return out, nil
}

// expand replaces the port variables in s with their ports.
func (p ports) expand(s string) string { return ir.ExpandPorts(s, p) }

// env is the ports as environment variables: SIEVE_PORT and SIEVE_PORT_N
// for each picked index.
func (p ports) env() []string {
	out := []string{"SIEVE_PORT=" + strconv.Itoa(p[0])}
	for i := range ir.MaxPorts {
		if port, ok := p[i]; ok {
			out = append(out, fmt.Sprintf("SIEVE_PORT_%d=%d", i, port))
		}
	}
	return out
}

// portTexts are the spec's strings that may name port variables: args,
// env values and the readiness URL.
func portTexts(c *ir.Controller) []string {
	out := append([]string(nil), c.Args...)
	for _, e := range c.Env {
		out = append(out, e.Value)
	}
	if c.Ready != nil {
		out = append(out, c.Ready.HTTPGet)
	}
	return out
}
