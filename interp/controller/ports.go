package controller

import (
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"

	"github.com/sievetool/sieve/lang/ir"
)

// MaxPorts is how many port variables a controller may use:
// ${SIEVE_PORT_0} to ${SIEVE_PORT_9}, ${SIEVE_PORT} being ${SIEVE_PORT_0}.
const MaxPorts = 10

// portVar matches a port variable; its group is the index, empty for
// ${SIEVE_PORT}.
var portVar = regexp.MustCompile(`\$\{SIEVE_PORT(?:_([0-9]))?\}`)

// ports are the host ports a runner picked for the port variables its
// controller's args, env and readiness URL name, by index. They are free
// TCP ports of the host, picked once per runner and kept across restarts,
// so that controllers sharing the host network (--host-network, or no
// network namespaces) in parallel workers bind distinct ports where a
// fixed one would collide.
type ports map[int]int

// pickPorts picks a free port for index 0 and for every index texts name.
// The listeners that found them stay open until all are picked, so the
// ports are distinct.
func pickPorts(texts []string) (ports, error) {
	want := map[int]bool{0: true}
	for _, s := range texts {
		for _, m := range portVar.FindAllStringSubmatch(s, -1) {
			i, _ := strconv.Atoi(m[1])
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
func (p ports) expand(s string) string {
	if !strings.Contains(s, "${SIEVE_PORT") {
		return s
	}
	return portVar.ReplaceAllStringFunc(s, func(m string) string {
		i, _ := strconv.Atoi(portVar.FindStringSubmatch(m)[1])
		return strconv.Itoa(p[i])
	})
}

// env is the ports as environment variables: SIEVE_PORT and SIEVE_PORT_N
// for each picked index.
func (p ports) env() []string {
	out := []string{"SIEVE_PORT=" + strconv.Itoa(p[0])}
	for i := range MaxPorts {
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
