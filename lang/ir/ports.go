package ir

import (
	"regexp"
	"strconv"
)

// MaxPorts is how many port variables a controller may use.
const MaxPorts = 10

// Port variables: in a controller's args, env values and readiness URL,
// ${SIEVE_PORT} and ${SIEVE_PORT_0} to ${SIEVE_PORT_9} stand for free
// host ports the controller runner picks (${SIEVE_PORT} is
// ${SIEVE_PORT_0}). portLike matches anything that looks like one,
// portVar a valid one, with the index as its group.
var (
	portLike = regexp.MustCompile(`\$\{SIEVE_PORT[^}]*\}?`)
	portVar  = regexp.MustCompile(`^\$\{SIEVE_PORT(?:_([0-9]))?\}$`)
)

// PortHint says which port variables there are, for an error about one
// that is none (both front ends give it).
const PortHint = "write ${SIEVE_PORT}, or ${SIEVE_PORT_0} to ${SIEVE_PORT_9} for several ports"

// PortRefs returns the indexes of the port variables s names and, apart,
// what looks like a port variable but is none (${SIEVE_PORTS},
// ${SIEVE_PORT_10}), which the runner would pass on as written.
func PortRefs(s string) (indexes []int, bad []string) {
	for _, m := range portLike.FindAllString(s, -1) {
		sub := portVar.FindStringSubmatch(m)
		if sub == nil {
			bad = append(bad, m)
			continue
		}
		i, _ := strconv.Atoi(sub[1])
		indexes = append(indexes, i)
	}
	return indexes, bad
}

// ExpandPorts replaces the port variables in s with their ports.
func ExpandPorts(s string, ports map[int]int) string {
	return portLike.ReplaceAllStringFunc(s, func(m string) string {
		sub := portVar.FindStringSubmatch(m)
		if sub == nil {
			return m
		}
		i, _ := strconv.Atoi(sub[1])
		return strconv.Itoa(ports[i])
	})
}
