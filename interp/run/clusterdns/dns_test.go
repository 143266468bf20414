package clusterdns

import (
	"net/netip"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"golang.org/x/net/dns/dnsmessage"
)

func testServer() *Server {
	ready := true
	cs := fake.NewSimpleClientset(
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"}, Spec: corev1.ServiceSpec{ClusterIP: "10.0.0.5", ClusterIPs: []string{"10.0.0.5"}}},
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "zk-hs", Namespace: "ns"}, Spec: corev1.ServiceSpec{ClusterIP: "None"}},
		&discoveryv1.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: "zk-hs-1", Namespace: "ns", Labels: map[string]string{discoveryv1.LabelServiceName: "zk-hs"}},
			Endpoints: []discoveryv1.Endpoint{{Addresses: []string{"10.244.0.7"}, Conditions: discoveryv1.EndpointConditions{Ready: &ready}}}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "zk-0", Namespace: "ns"}, Spec: corev1.PodSpec{Subdomain: "zk-hs"},
			Status: corev1.PodStatus{PodIPs: []corev1.PodIP{{IP: "10.244.0.7"}}}},
	)
	return &Server{Client: cs, Fixed: map[string]netip.Addr{"db-client.ns": netip.MustParseAddr("127.1.0.1")}}
}

// TestAnswer asks for each kind of name, A and AAAA.
func TestAnswer(t *testing.T) {
	s := testServer()
	for _, c := range []struct {
		name  string
		typ   dnsmessage.Type
		rcode dnsmessage.RCode
		want  []string
	}{
		{"web.ns.svc.cluster.local.", dnsmessage.TypeA, dnsmessage.RCodeSuccess, []string{"10.0.0.5"}},
		{"WEB.ns.svc.cluster.local.", dnsmessage.TypeA, dnsmessage.RCodeSuccess, []string{"10.0.0.5"}},
		{"web.ns.svc.cluster.local.", dnsmessage.TypeAAAA, dnsmessage.RCodeSuccess, nil},
		{"zk-hs.ns.svc.cluster.local.", dnsmessage.TypeA, dnsmessage.RCodeSuccess, []string{"10.244.0.7"}},
		{"zk-0.zk-hs.ns.svc.cluster.local.", dnsmessage.TypeA, dnsmessage.RCodeSuccess, []string{"10.244.0.7"}},
		{"zk-0.other.ns.svc.cluster.local.", dnsmessage.TypeA, dnsmessage.RCodeNameError, nil},
		{"db-client.ns.svc.cluster.local.", dnsmessage.TypeA, dnsmessage.RCodeSuccess, []string{"127.1.0.1"}},
		{"nope.ns.svc.cluster.local.", dnsmessage.TypeA, dnsmessage.RCodeNameError, nil},
		{"web.ns.svc.", dnsmessage.TypeA, dnsmessage.RCodeNameError, nil},
		{"example.com.", dnsmessage.TypeA, dnsmessage.RCodeNameError, nil},
	} {
		rcode, got := ask(t, s, c.name, c.typ)
		if rcode != c.rcode || !slices.Equal(got, c.want) {
			t.Errorf("%s %v: got %v %v, want %v %v", c.name, c.typ, rcode, got, c.rcode, c.want)
		}
	}
}

func ask(t *testing.T, s *Server, name string, typ dnsmessage.Type) (dnsmessage.RCode, []string) {
	t.Helper()
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: 7, RecursionDesired: true})
	_ = b.StartQuestions()
	_ = b.Question(dnsmessage.Question{Name: dnsmessage.MustNewName(name), Type: typ, Class: dnsmessage.ClassINET})
	q, _ := b.Finish()
	resp, err := s.answer(q)
	if err != nil {
		t.Fatal(err)
	}
	var m dnsmessage.Message
	if err := m.Unpack(resp); err != nil {
		t.Fatal(err)
	}
	if m.ID != 7 || !m.Response {
		t.Errorf("%s: header %+v", name, m.Header)
	}
	var ips []string
	for _, a := range m.Answers {
		switch r := a.Body.(type) {
		case *dnsmessage.AResource:
			ips = append(ips, netip.AddrFrom4(r.A).String())
		case *dnsmessage.AAAAResource:
			ips = append(ips, netip.AddrFrom16(r.AAAA).String())
		}
	}
	return m.RCode, ips
}

// TestResolvConf holds the search path of a pod in namespace ns.
func TestResolvConf(t *testing.T) {
	want := "nameserver 127.0.0.1\nsearch ns.svc.cluster.local svc.cluster.local cluster.local\noptions ndots:5\n"
	if got := ResolvConf("ns"); got != want {
		t.Errorf("got %q", got)
	}
}
