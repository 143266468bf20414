package standin

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/netns"
	"github.com/sievetool/sieve/lang/ir"
)

// agentEnv makes the test binary act as a pod stand-in: it answers each
// connection with the pod its pod map names for the connection's source.
const agentEnv = "SIEVE_TEST_POD_AGENT"

func TestMain(m *testing.M) {
	if os.Getenv(agentEnv) != "" {
		agent()
	}
	testProgram() // the daemon stand-in, on Linux
	os.Exit(m.Run())
}

func agent() {
	l, err := net.Listen("tcp", os.Getenv("STANDIN_ADDR"))
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	for {
		c, err := l.Accept()
		if err != nil {
			os.Exit(1)
		}
		ip, _, _ := net.SplitHostPort(c.RemoteAddr().String())
		b, _ := os.ReadFile(os.Getenv("STANDIN_PODS"))
		pod := "unknown " + ip
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) == 3 && f[0] == ip {
				pod = f[1]
			}
		}
		fmt.Fprintln(c, os.Getenv("STANDIN_SELECTOR"), pod)
		c.Close()
	}
}

func pod(name, ip string, labels map[string]string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "e2e", Name: name, Labels: labels, UID: types.UID("uid-" + name)},
		Status: corev1.PodStatus{PodIP: ip}}
}

// TestPodStandin serves the pods with app=agent. A call to each pod's IP
// reaches the stand-in, which tells the pod from its pod map. A call to a
// pod that does not match, that is deleted or that stops matching is
// refused. A pod that appears later is served. sieve's log line says
// which pod each connection reached.
func TestPodStandin(t *testing.T) {
	n, err := netns.New()
	if errors.Is(err, netns.ErrUnsupported) {
		t.Skipf("no private network here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	agent := map[string]string{"app": "agent"}
	client := fake.NewClientset(pod("agent-0", "10.130.0.1", agent), pod("agent-1", "10.130.0.2", agent),
		pod("web-0", "10.130.0.3", map[string]string{"app": "web"}), pod("ctl-sieve", "127.0.0.1", agent),
		pod("pending", "", agent))
	s, _, _ := ir.ParseStandinKey("pods app=agent:9090")
	s.Command, s.Env = []string{os.Args[0]}, []ir.EnvVar{{Name: agentEnv, Value: "1"}}
	dir := t.TempDir()
	ctx := context.Background()
	var rec entries
	set, err := Start(ctx, Options{Standins: []*ir.Standin{s}, Net: n, Client: client, Dir: dir, BaseDir: dir, Sink: rec.add})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Stop()
	call := func(addr string) (string, error) {
		c, err := n.Dial(ctx, "tcp", addr)
		if err != nil {
			return "", err
		}
		defer c.Close()
		line, err := bufio.NewReader(c).ReadString('\n')
		return strings.TrimSpace(line), err
	}
	for addr, want := range map[string]string{"10.130.0.1:9090": "app=agent e2e/agent-0", "10.130.0.2:9090": "app=agent e2e/agent-1"} {
		if got, err := call(addr); got != want {
			t.Errorf("call to %s: %q (%v), want %q", addr, got, err, want)
		}
	}
	for _, addr := range []string{"10.130.0.3:9090", "10.130.0.1:9091"} {
		if _, err := call(addr); !errors.Is(err, syscall.ECONNREFUSED) {
			t.Errorf("call to %s: %v, want it refused", addr, err)
		}
	}
	pods := client.CoreV1().Pods("e2e")
	if err := pods.Delete(ctx, "agent-1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := pods.Update(ctx, pod("agent-0", "10.130.0.1", map[string]string{"app": "web"}), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := pods.Update(ctx, pod("pending", "10.130.0.4", agent), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the deleted pod refused", func() bool { _, err := call("10.130.0.2:9090"); return errors.Is(err, syscall.ECONNREFUSED) })
	eventually(t, "the relabelled pod refused", func() bool { _, err := call("10.130.0.1:9090"); return errors.Is(err, syscall.ECONNREFUSED) })
	eventually(t, "the pod that got its IP served", func() bool { got, _ := call("10.130.0.4:9090"); return got == "app=agent e2e/pending" })
	if b, _ := os.ReadFile(dir + "/" + PodsFile(s)); string(b) != "10.130.0.4 e2e/pending uid-pending\n" {
		t.Errorf("pod map at the end:\n%s", b)
	}
	if !rec.has(trace.Conn{ID: 1, Standin: "pods app=agent", Addr: "10.130.0.1:9090", Pod: "e2e/agent-0"}) &&
		!rec.has(trace.Conn{ID: 1, Standin: "pods app=agent", Addr: "10.130.0.2:9090", Pod: "e2e/agent-1"}) {
		t.Errorf("no record of the first connection, to agent-0 or agent-1: %+v", rec.all())
	}
	log, _ := os.ReadFile(dir + "/" + LogFile(s))
	for _, want := range []string{"connection 1 to pod e2e/agent-", "to pod e2e/pending at 10.130.0.4:9090", "pod e2e/agent-1 at 10.130.0.2: deleted"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("the log does not say %q:\n%s", want, log)
		}
	}
}

// entries collects trace entries from many goroutines.
type entries struct {
	mu sync.Mutex
	es []trace.Entry
}

func (r *entries) add(e trace.Entry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.es = append(r.es, e)
}

func (r *entries) all() []trace.Entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]trace.Entry(nil), r.es...)
}

// has reports whether a connection was opened and closed in order, with
// what the stand-in answered received, as conn says.
func (r *entries) has(conn trace.Conn) bool {
	var open, closed bool
	for _, e := range r.all() {
		if e.Type != trace.Connection || e.Conn.ID != conn.ID {
			continue
		}
		c := *e.Conn
		c.Sent, c.Received, c.End = 0, 0, ""
		open = open || e.What == "open" && c == conn
		closed = closed || e.What == "close" && c == conn && e.Conn.End == trace.ConnEOF && e.Conn.Received > 0
	}
	return open && closed
}

// TestServiceStandinRelayed calls a Service stand-in at the address its
// names resolve to: sieve relays the call to the program and records the
// connection.
func TestServiceStandinRelayed(t *testing.T) {
	n, err := netns.New()
	if errors.Is(err, netns.ErrUnsupported) {
		t.Skipf("no private network here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	s := &ir.Standin{Service: "db", Ports: []int{9090}, Command: []string{os.Args[0]}, Env: []ir.EnvVar{{Name: agentEnv, Value: "1"}}}
	dir := t.TempDir()
	var rec entries
	set, err := Start(context.Background(), Options{Standins: []*ir.Standin{s}, Net: n, Dir: dir, BaseDir: dir, Sink: rec.add})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Stop()
	addr := Names([]*ir.Standin{s}, "e2e")["db.e2e"]
	c, err := n.Dial(context.Background(), "tcp", addr.String()+":9090")
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	c.Close()
	if !strings.Contains(line, "unknown 127.") {
		t.Errorf("the stand-in answered %q (%v), want its answer to an unknown pod", line, err)
	}
	if addr == Addr(0) {
		t.Errorf("db resolves to the program's own address %s: sieve does not relay it", addr)
	}
	eventually(t, "the connection recorded", func() bool { return rec.has(trace.Conn{ID: 1, Standin: "db", Addr: addr.String() + ":9090"}) })
	if log, _ := os.ReadFile(dir + "/" + LogFile(s)); !strings.Contains(string(log), "sieve: connection 1 to db at "+addr.String()+":9090") {
		t.Errorf("the log does not name the connection:\n%s", log)
	}
}

// eventually polls ok for up to 10 s.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Errorf("not within 10s: %s", what)
}

// TestPodStandinFiles names a pod stand-in's log and pod map after its
// selector, with what a file name should not hold as "_".
func TestPodStandinFiles(t *testing.T) {
	s, _, _ := ir.ParseStandinKey("pods example.com/role=db, !canary:9090")
	if got, want := LogFile(s), "standin-pods-example.com_role=db,_canary.log"; got != want {
		t.Errorf("log file %q, want %q", got, want)
	}
	if got, want := PodsFile(s), "standin-pods-example.com_role=db,_canary.pods"; got != want {
		t.Errorf("pod map %q, want %q", got, want)
	}
	if got := LogFile(&ir.Standin{Service: "db"}); got != "standin-db.log" {
		t.Errorf("a Service stand-in's log file %q, want standin-db.log", got)
	}
}
