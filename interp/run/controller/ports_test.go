package controller

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/lang/ir"
)

// portServerEnv makes the test binary act as a controller that serves
// HTTP on the address of its --listen=ADDR argument.
const portServerEnv = "SIEVE_TEST_PORT_SERVER"

// portServer is the test binary as such a controller; it does not
// return.
func portServer() {
	addr, ok := strings.CutPrefix(os.Args[len(os.Args)-1], "--listen=")
	if !ok {
		fmt.Fprintln(os.Stderr, "port server: want --listen=ADDR, got", os.Args)
		os.Exit(2)
	}
	fmt.Println("listening on", addr, "SIEVE_PORT="+os.Getenv("SIEVE_PORT"), "MY_PORT="+os.Getenv("MY_PORT"))
	fmt.Fprintln(os.Stderr, http.ListenAndServe(addr, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})))
	os.Exit(3)
}

func TestExpandPorts(t *testing.T) {
	p := ports{0: 4000, 3: 4003}
	for in, want := range map[string]string{
		"--metrics=:${SIEVE_PORT}":          "--metrics=:4000",
		"${SIEVE_PORT_0},${SIEVE_PORT_3}":   "4000,4003",
		"http://127.0.0.1:${SIEVE_PORT_3}/": "http://127.0.0.1:4003/",
		"${SIEVE_PORTS} $SIEVE_PORT":        "${SIEVE_PORTS} $SIEVE_PORT",
	} {
		if got := p.expand(in); got != want {
			t.Errorf("expand(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := strings.Join(p.env(), " "), "SIEVE_PORT=4000 SIEVE_PORT_0=4000 SIEVE_PORT_3=4003"; got != want {
		t.Errorf("env = %q, want %q", got, want)
	}
}

// TestPortsPerRunner runs two controllers that each bind the port named
// by ${SIEVE_PORT} at once, on the host network. Each gets its own port
// (readiness is an HTTP GET on it), the env says the same, and a restart
// keeps the port.
func TestPortsPerRunner(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := &ir.Controller{Name: "ctl", Src: src, Command: []string{exe}, Args: []string{"--listen=127.0.0.1:${SIEVE_PORT}"},
		Env:   []ir.EnvVar{{Name: portServerEnv, Value: "1"}, {Name: "MY_PORT", Value: "${SIEVE_PORT_0}"}},
		Ready: &ir.Readiness{HTTPGet: "http://127.0.0.1:${SIEVE_PORT}/ready", Timeout: ir.Duration(10 * time.Second)}}
	var runners [2]*Runner
	errs := make(chan error, 2)
	for i := range runners {
		runners[i] = newRunner(t, c, nil)
		go func(r *Runner) { errs <- r.Start(context.Background()) }(runners[i])
	}
	for range runners {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	a, b := runners[0].ports[0], runners[1].ports[0]
	if a == 0 || a == b {
		t.Fatalf("ports %d and %d: want two distinct ports", a, b)
	}
	if err := runners[0].Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(runners[0].LogPath())
	want := fmt.Sprintf("listening on 127.0.0.1:%d SIEVE_PORT=%d MY_PORT=%d", a, a, a)
	if n := strings.Count(string(log), want); n != 2 {
		t.Errorf("log has %q %d times, want 2 (start and restart):\n%s", want, n, log)
	}
}
