// Command execer is a small client-go controller for the pipeline's
// end-to-end test of exec stand-ins: when ConfigMap "ask" of its
// namespace appears, it runs data.command (split at spaces, data.stdin as
// its input) in data.pod's container data.container through pods/exec,
// with client-go's remotecommand as kubectl does (WebSocket, falling back
// to SPDY), and writes what it got into ConfigMap "answer": stdout,
// stderr, exit and error. It logs READY once it is watching.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/remotecommand"
	"k8s.io/utils/exec"
)

func main() {
	namespace := flag.String("namespace", "default", "namespace to watch")
	flag.Parse()
	if err := run(os.Getenv("KUBECONFIG"), *namespace); err != nil {
		fmt.Fprintln(os.Stderr, "execer:", err)
		os.Exit(1)
	}
}

func run(kubeconfig, ns string) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	ctx := context.Background()
	ready := false
	for {
		w, err := cs.CoreV1().ConfigMaps(ns).Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=ask"})
		if err != nil {
			return err
		}
		if !ready {
			fmt.Println("READY")
			ready = true
		}
		for ev := range w.ResultChan() {
			ask, ok := ev.Object.(*corev1.ConfigMap)
			if ev.Type != watch.Added || !ok {
				continue
			}
			if err := reconcile(ctx, cfg, cs, ask); err != nil {
				return err
			}
		}
	}
}

// reconcile answers ask once.
func reconcile(ctx context.Context, cfg *rest.Config, cs *kubernetes.Clientset, ask *corev1.ConfigMap) error {
	_, err := cs.CoreV1().ConfigMaps(ask.Namespace).Get(ctx, "answer", metav1.GetOptions{})
	if !apierrors.IsNotFound(err) {
		return err
	}
	d := ask.Data
	stdout, stderr, code, execErr := execIn(ctx, cfg, cs, ask.Namespace, d["pod"], d["container"], strings.Fields(d["command"]), d["stdin"])
	answer := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "answer", Namespace: ask.Namespace},
		Data:       map[string]string{"stdout": stdout, "stderr": stderr, "exit": strconv.Itoa(code), "error": ""},
	}
	if execErr != nil {
		answer.Data["error"] = execErr.Error()
		fmt.Println("EXEC FAILED:", execErr)
	}
	_, err = cs.CoreV1().ConfigMaps(ask.Namespace).Create(ctx, answer, metav1.CreateOptions{})
	return err
}

// execIn runs command in a pod's container as kubectl exec does.
func execIn(ctx context.Context, cfg *rest.Config, cs *kubernetes.Clientset, ns, pod, container string, command []string, stdin string) (string, string, int, error) {
	req := cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(ns).Name(pod).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{Container: container, Command: command, Stdin: stdin != "", Stdout: true, Stderr: true}, scheme.ParameterCodec)
	ws, err := remotecommand.NewWebSocketExecutor(cfg, "GET", req.URL().String())
	if err != nil {
		return "", "", 0, err
	}
	sp, err := remotecommand.NewSPDYExecutor(cfg, "POST", req.URL())
	if err != nil {
		return "", "", 0, err
	}
	ex, err := remotecommand.NewFallbackExecutor(ws, sp, func(err error) bool {
		return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
	})
	if err != nil {
		return "", "", 0, err
	}
	var out, errb bytes.Buffer
	opts := remotecommand.StreamOptions{Stdout: &out, Stderr: &errb}
	if stdin != "" {
		opts.Stdin = strings.NewReader(stdin)
	}
	err = ex.StreamWithContext(ctx, opts)
	var ee exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), errb.String(), ee.ExitStatus(), nil
	}
	return out.String(), errb.String(), 0, err
}
