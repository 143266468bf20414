// Command podop is an operator for the pipeline's end-to-end tests of
// in-cluster mode, written as operator-sdk operators are: it runs in its
// pod (rest.InClusterConfig), becomes leader as operator-lib's
// leader.Become does (reads POD_NAME, gets its own Pod, creates a
// ConfigMap lock owned by that Pod, waits while another pod's lock
// stands), binds a fixed port (-listen) for its health endpoint, and for
// every ConfigMap "in-X" of its namespace writes "out-X" with the same
// data, plus, with -standin URLS, what those URLs answered, and with
// -agents PORT, what http://POD_IP:PORT/ answered for every other pod of
// its namespace that has an IP ("refused" when nothing listens). It logs LEADER
// once it leads and READY once its cache has synced.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

func main() {
	listen := flag.String("listen", "", "a fixed address to serve /healthz on (fails if taken)")
	standin := flag.String("standin", "", "URLs to read for every copy (comma-separated)")
	flag.IntVar(&agentPort, "agents", 0, "a port to call every other pod of the namespace on for every copy")
	flag.Parse()
	if err := run(*listen, *standin); err != nil {
		fmt.Println("podop:", err)
		os.Exit(1)
	}
}

// agentPort is -agents.
var agentPort int

func run(listen, standin string) error {
	ctx := context.Background()
	if listen != "" {
		l, err := net.Listen("tcp", listen)
		if err != nil {
			return err
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") })
		go func() { _ = http.Serve(l, mux) }()
		fmt.Println("LISTEN", l.Addr())
	}
	cfg, err := rest.InClusterConfig()
	if err != nil {
		return err
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	ns := os.Getenv("POD_NAMESPACE")
	if err := become(ctx, cs, ns, "podop-lock"); err != nil {
		return err
	}
	fmt.Println("LEADER")
	return copyLoop(ctx, cs, ns, standin)
}

// become is operator-lib's leader.Become in short.
func become(ctx context.Context, cs kubernetes.Interface, ns, lock string) error {
	name := os.Getenv("POD_NAME")
	if name == "" {
		return errors.New("POD_NAME is not set")
	}
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("Failed to get Pod %s: %w", name, err)
	}
	if c := condition(pod, corev1.PodReady); c != corev1.ConditionTrue || pod.Status.Phase != corev1.PodRunning {
		return fmt.Errorf("pod %s is not running and ready (%s, ready %s)", name, pod.Status.Phase, c)
	}
	owner := metav1.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: pod.Name, UID: pod.UID}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: lock, Namespace: ns, OwnerReferences: []metav1.OwnerReference{owner}}}
	for wait := 200 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
		if err == nil {
			return nil
		}
		if !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating the lock: %w", err)
		}
		old, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, lock, metav1.GetOptions{})
		if err == nil && len(old.OwnerReferences) > 0 && old.OwnerReferences[0].UID == pod.UID {
			return nil
		}
		fmt.Println("Not the leader. Waiting.")
		time.Sleep(wait)
	}
}

func condition(pod *corev1.Pod, t corev1.PodConditionType) corev1.ConditionStatus {
	for _, c := range pod.Status.Conditions {
		if c.Type == t {
			return c.Status
		}
	}
	return corev1.ConditionUnknown
}

// copyLoop writes out-X for every in-X.
func copyLoop(ctx context.Context, cs kubernetes.Interface, ns, standin string) error {
	f := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(ns))
	inf := f.Core().V1().ConfigMaps().Informer()
	sync := func(obj any) {
		cm, ok := obj.(*corev1.ConfigMap)
		if !ok || !strings.HasPrefix(cm.Name, "in-") {
			return
		}
		if err := copyOne(ctx, cs, cm, standin); err != nil {
			fmt.Println("copy:", err)
		}
	}
	_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: sync, UpdateFunc: func(_, n any) { sync(n) }})
	f.Start(ctx.Done())
	f.WaitForCacheSync(ctx.Done())
	fmt.Println("READY")
	<-ctx.Done()
	return nil
}

func copyOne(ctx context.Context, cs kubernetes.Interface, in *corev1.ConfigMap, standin string) error {
	data := map[string]string{}
	for k, v := range in.Data {
		data[k] = v
	}
	if standin != "" {
		var answers []string
		for _, url := range strings.Split(standin, ",") {
			s, err := fetch(url)
			if err != nil {
				return err
			}
			answers = append(answers, s)
		}
		data["standin"] = strings.Join(answers, " ")
	}
	if agentPort != 0 {
		agents, err := callAgents(ctx, cs, in.Namespace)
		if err != nil {
			return err
		}
		data["agents"] = agents
	}
	out := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "out-" + strings.TrimPrefix(in.Name, "in-"), Namespace: in.Namespace}, Data: data}
	api := cs.CoreV1().ConfigMaps(in.Namespace)
	cur, err := api.Get(ctx, out.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = api.Create(ctx, out, metav1.CreateOptions{})
		return err
	}
	if err != nil {
		return err
	}
	cur.Data = data
	_, err = api.Update(ctx, cur, metav1.UpdateOptions{})
	return err
}

func fetch(url string) (string, error) {
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return strings.TrimSpace(string(b)), err
}

// callAgents calls every other pod of ns that has an IP on agentPort,
// by IP, and returns "NAME=ANSWER ..." sorted by pod name.
func callAgents(ctx context.Context, cs kubernetes.Interface, ns string) (string, error) {
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", err
	}
	var out []string
	for _, p := range pods.Items {
		if p.Name == os.Getenv("POD_NAME") || p.Status.PodIP == "" {
			continue
		}
		answer, err := fetch(fmt.Sprintf("http://%s/", net.JoinHostPort(p.Status.PodIP, fmt.Sprint(agentPort))))
		if errors.Is(err, syscall.ECONNREFUSED) {
			answer = "refused"
		} else if err != nil {
			return "", err
		}
		out = append(out, p.Name+"="+answer)
	}
	sort.Strings(out)
	return strings.Join(out, " "), nil
}
