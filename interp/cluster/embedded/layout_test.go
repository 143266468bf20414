package embedded

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/sievetool/sieve/internal/golden"
)

// TestComponentArgs holds the command lines of the components for a fixed
// layout equal to testdata/args.txtar (SIEVE_UPDATE=1 rewrites it).
func TestComponentArgs(t *testing.T) {
	l := layout{
		dir: "/tmp/sieve-cluster-X", etcdPort: 2379, etcdPeerPort: 2380, apiPort: 6443, schedulerPort: 10259,
		controllers: []string{"garbage-collector-controller", "namespace-controller"}, nodes: 2,
		seed: "/cache/sieve/controlplane/src-X/bootstrap-10-0-0-0_16.seed",
	}
	got := &txtar.Archive{Comment: []byte("Command lines of the embedded components (SIEVE_UPDATE=1 rewrites), of\nthe default line and of Kubernetes 1.21.\n")}
	for _, line := range []string{"", "1.21"} {
		l.line = line
		for _, spec := range l.withEtcdSocket().componentArgs() {
			name := spec.name
			if line != "" {
				if !spec.line {
					continue // the default binary's, as above
				}
				name += " " + line
			}
			switch spec.wait {
			case waitHealthy:
				name += " (waits for /healthz)"
			case waitServing:
				name += " (waits for /version)"
			}
			got.Files = append(got.Files, txtar.File{Name: name, Data: []byte(strings.Join(spec.args, "\n") + "\n")})
		}
	}
	l.line = ""
	got.Files = append(got.Files, txtar.File{
		Name: "builtin statefulset",
		Data: []byte(strings.Join(BuiltinCommand("sieve-controlplane", "statefulset", "/proxy/kubeconfig"), "\n") + "\n"),
	})
	golden.File(t, filepath.Join("testdata", "args.txtar"), txtar.Format(got))
}

func TestControllers(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		want string // comma-joined, or "error: ..."; ending in a space, a prefix
	}{
		{Options{Controllers: []string{"job", "statefulset-controller"}}, "job-controller,statefulset-controller"},
		{Options{Controllers: []string{"job", "statefulset"}, Disable: []string{"statefulset"}}, "job-controller"},
		{Options{Controllers: []string{"job"}, Disable: []string{"statefulsett"}}, `error: disable "statefulsett": not among the controllers the cluster runs (job)`},
		{Options{Disable: []string{"deploymnt"}}, `error: disable: unknown builtin controller "deploymnt" (want one of clusterrole-aggregation, `},
	} {
		got, err := tc.opts.controllers()
		s := strings.Join(got, ",")
		if err != nil {
			s = "error: " + err.Error()
		}
		if s != tc.want && !(strings.HasSuffix(tc.want, " ") && strings.HasPrefix(s, tc.want)) {
			t.Errorf("%+v: got %q, want %q", tc.opts, s, tc.want)
		}
	}
	all, err := Options{}.controllers()
	if err != nil || len(all) != len(DefaultControllers()) {
		t.Errorf("default controllers: %v %v", all, err)
	}
}

// TestResetOps checks which keys a reset deletes, writes back and
// recreates.
func TestResetOps(t *testing.T) {
	snap := &snapshot{entries: map[string]entry{
		"/registry/namespaces/default":                  {[]byte("ns"), 2, 1},
		"/registry/ranges/serviceips":                   {[]byte("old"), 5, 1},
		"/registry/ranges/nodeports":                    {[]byte("same"), 7, 1},
		"/registry/configmaps/default/changed":          {[]byte("before"), 8, 8},
		"/registry/configmaps/default/deleted":          {[]byte("kept"), 3, 3},
		"/registry/configmaps/default/again":            {[]byte("first"), 3, 3},
		"/registry/events/default/old":                  {[]byte("event"), 4, 4},
		"/registry/leases/kube-node-lease/sieve-node-0": {[]byte("lease"), 6, 6},
	}}
	now := []*mvccpb.KeyValue{
		{Key: []byte("/registry/namespaces/default"), ModRevision: 2, CreateRevision: 1},
		{Key: []byte("/registry/namespaces/plan"), ModRevision: 10, CreateRevision: 10},
		{Key: []byte("/registry/pods/plan/web-0"), ModRevision: 11, CreateRevision: 11},
		{Key: []byte("/registry/leases/kube-node-lease/sieve-node-0"), ModRevision: 12, CreateRevision: 6},
		{Key: []byte("/registry/leases/kube-node-lease/sieve-node-1"), ModRevision: 12, CreateRevision: 12},
		{Key: []byte("/registry/ranges/serviceips"), ModRevision: 13, CreateRevision: 1},
		{Key: []byte("/registry/ranges/nodeports"), ModRevision: 7, CreateRevision: 1},
		{Key: []byte("/registry/configmaps/default/changed"), ModRevision: 14, CreateRevision: 8},
		{Key: []byte("/registry/configmaps/default/again"), ModRevision: 16, CreateRevision: 16},
		{Key: []byte("/registry/events/default/new"), ModRevision: 15, CreateRevision: 15},
	}
	var got []string
	ops, again := snap.resetOps(now, false)
	for _, op := range append(ops, again...) {
		if op.IsTxn() { // recreated if absent
			_, then, _ := op.Txn()
			op = then[0]
			got = append(got, "then, if absent:")
		}
		switch {
		case op.IsDelete():
			got = append(got, "delete "+string(op.KeyBytes()))
		case op.IsPut():
			got = append(got, fmt.Sprintf("put %s=%s", op.KeyBytes(), op.ValueBytes()))
		}
	}
	want := []string{
		"delete /registry/namespaces/plan",
		"delete /registry/pods/plan/web-0",
		"put /registry/ranges/serviceips=old",
		"put /registry/configmaps/default/changed=before",
		"delete /registry/configmaps/default/again", // made again since: deleted, then recreated
		"delete /registry/events/default/new",
		"put /registry/configmaps/default/deleted=kept",
		"then, if absent:",
		"put /registry/configmaps/default/again=first",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("reset operations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEtcdSocket holds where etcd serves its clients: a socket in the
// cluster's directory, or its TLS port for an older line and when the
// socket's path does not fit in a socket address.
func TestEtcdSocket(t *testing.T) {
	long := "/tmp/" + strings.Repeat("x", maxSocketPath)
	for _, tc := range []struct {
		dir, line, want string
	}{
		{"/tmp/sieve-cluster-X", "", "unix:///tmp/sieve-cluster-X/etcd.sock"},
		{"/tmp/sieve-cluster-X", "1.21", "https://127.0.0.1:2379"},
		{long, "", "https://127.0.0.1:2379"},
	} {
		l := layout{dir: tc.dir, line: tc.line, etcdPort: 2379}.withEtcdSocket()
		if got := l.etcdURL(); got != tc.want {
			t.Errorf("dir %s, line %q: etcd at %s, want %s", tc.dir, tc.line, got, tc.want)
		}
		if tls := strings.Contains(strings.Join(l.apiServerArgs(), " "), "--etcd-certfile="); tls != (l.etcdSocket == "") {
			t.Errorf("dir %s, line %q: API server's etcd client TLS %v, socket %q", tc.dir, tc.line, tls, l.etcdSocket)
		}
	}
}

// TestNamespaceDeletes splits a reset's operations into the deletions of
// namespaces, which go first, and the rest, a namespace written back
// among them.
func TestNamespaceDeletes(t *testing.T) {
	ops := []clientv3.Op{
		clientv3.OpDelete("/registry/namespaces/plan"),
		clientv3.OpDelete("/registry/serviceaccounts/plan/default"),
		clientv3.OpPut("/registry/namespaces/kept", "ns"),
		clientv3.OpDelete("/registry/namespaces/other"),
		clientv3.OpDelete("/registry/namespacesx/odd"),
	}
	keys := func(ops []clientv3.Op) string {
		var ks []string
		for _, op := range ops {
			ks = append(ks, string(op.KeyBytes()))
		}
		return strings.Join(ks, " ")
	}
	names, first, rest := namespaceDeletes(ops)
	if len(names) != 2 || !names["plan"] || !names["other"] {
		t.Errorf("names %v, want plan and other", names)
	}
	if got, want := keys(first), "/registry/namespaces/plan /registry/namespaces/other"; got != want {
		t.Errorf("first: %s, want %s", got, want)
	}
	if got, want := keys(rest), "/registry/serviceaccounts/plan/default /registry/namespaces/kept /registry/namespacesx/odd"; got != want {
		t.Errorf("rest: %s, want %s", got, want)
	}
}
