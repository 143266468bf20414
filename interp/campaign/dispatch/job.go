package dispatch

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/sievetool/sieve/lang/diag"
)

// Labels and annotations on a campaign's Job and pods.
const (
	LabelCampaign   = "sieve.dev/campaign"
	LabelComponent  = "app.kubernetes.io/component"
	LabelName       = "app.kubernetes.io/name"
	AnnotationTest  = "sieve.dev/test"
	AnnotationSpec  = "sieve.dev/spec"
	AnnotationPlans = "sieve.dev/plans-per-shard"
	// ExitUsage is the exit status of a worker whose shard cannot run
	// whatever the retries (a spec or usage error): its index fails
	// without a retry (podFailurePolicy FailIndex).
	ExitUsage = 2
	// container is the worker container's name.
	container = "worker"
)

// Campaign is one test's plans run as one Indexed Job. The zero values of
// the optional fields are the defaults.
type Campaign struct {
	// Name names the campaign: the Job is sieve-Name, and the registry
	// tags Name-refs and Name-shard-I. A DNS label of at most 40
	// characters.
	Name      string
	Namespace string
	// Image is the worker image (sieve image), best by digest.
	Image string
	// Test is the test to run; Spec the spec file's name (told only).
	Test, Spec string
	// Shards is the number of parts of the plans (completions); Workers
	// how many run at once (parallelism; default Shards).
	Shards, Workers int
	// PlansPerShard counts the plans of each shard, from the plan set
	// the dispatcher generated, and the explored workload's results that
	// fall to it (pipeline.Split; told, and used for the deadline).
	PlansPerShard []int
	// Artifacts is the repository the reference runs are pulled from and
	// the results pushed to (registry/repository).
	Artifacts string
	// RunArgs are more flags of sieve run for every shard (--pattern,
	// --max-plans, --confirm).
	RunArgs []string
	// Retries is the number of retries of a failed index
	// (backoffLimitPerIndex; default 1).
	Retries int
	// Deadline is the Job's activeDeadlineSeconds (default: PlanTime
	// times the largest shard's plans, times two, plus ten minutes).
	Deadline time.Duration
	// PlanTime is the expected time of one plan (default one minute).
	PlanTime time.Duration
	// CPU and Memory are each worker's requests (default Cost); the
	// memory limit is twice the request.
	CPU, Memory string
	// PushSecret names a Secret of type kubernetes.io/dockerconfigjson
	// the workers push results with (none: the registry takes anonymous
	// pushes); PullSecret an image pull secret.
	PushSecret, PullSecret string
	// NodeSelector puts the pods on the nodes with these labels (a node
	// pool for batch work, say).
	NodeSelector map[string]string
}

// Cost is what one worker needs: one embedded control plane (etcd,
// kube-apiserver, kube-controller-manager, kube-scheduler), the proxy,
// sieve and the controller under test; docs/scale-out.md says how it was
// measured.
var Cost = struct{ CPU, Memory string }{CPU: "1", Memory: "1Gi"}

// JobName is the name of the campaign's Job.
func (c *Campaign) JobName() string { return "sieve-" + c.Name }

// Labels are the labels of the campaign's Job and pods.
func (c *Campaign) Labels() map[string]string {
	return map[string]string{LabelName: "sieve", LabelComponent: "worker", LabelCampaign: c.Name}
}

// Job is the campaign's Indexed Job: index i (0-based) runs shard i+1 of
// Shards in a pod of its own.
func (c *Campaign) Job() (*batchv1.Job, error) {
	pod, err := c.podSpec()
	if err != nil {
		return nil, err
	}
	workers := c.Workers
	if workers <= 0 || workers > c.Shards {
		workers = c.Shards
	}
	retries := c.Retries
	if retries == 0 {
		retries = 1
	}
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: c.JobName(), Namespace: c.Namespace, Labels: c.Labels(), Annotations: c.annotations()},
		Spec: batchv1.JobSpec{
			CompletionMode:          ptr.To(batchv1.IndexedCompletion),
			Completions:             ptr.To(int32(c.Shards)),
			Parallelism:             ptr.To(int32(workers)),
			BackoffLimitPerIndex:    ptr.To(int32(max(retries, 0))),
			ActiveDeadlineSeconds:   ptr.To(int64(c.deadline().Seconds())),
			TTLSecondsAfterFinished: ptr.To(int32(24 * 3600)),
			PodFailurePolicy: &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{
				Action: batchv1.PodFailurePolicyActionFailIndex,
				OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{
					ContainerName: ptr.To(container), Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{ExitUsage},
				},
			}}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: c.Labels(), Annotations: c.annotations()}, Spec: pod},
		},
	}, nil
}

func (c *Campaign) annotations() map[string]string {
	return map[string]string{AnnotationTest: c.Test, AnnotationSpec: c.Spec, AnnotationPlans: fmt.Sprint(c.PlansPerShard)}
}

// deadline is the Job's activeDeadlineSeconds.
func (c *Campaign) deadline() time.Duration {
	if c.Deadline > 0 {
		return c.Deadline
	}
	per := c.PlanTime
	if per <= 0 {
		per = time.Minute
	}
	most := 1
	for _, n := range c.PlansPerShard {
		most = max(most, n)
	}
	// Shards that wait for a free worker start late: the Job's deadline
	// counts from its start.
	waves := (c.Shards + max(c.Workers, 1) - 1) / max(c.Workers, 1)
	return time.Duration(2*most*max(waves, 1))*per + 10*time.Minute
}

// podSpec is the worker pod: unprivileged, without API access, one
// writable emptyDir at Tmp.
func (c *Campaign) podSpec() (corev1.PodSpec, error) {
	res, err := c.resources()
	if err != nil {
		return corev1.PodSpec{}, err
	}
	spec := corev1.PodSpec{
		RestartPolicy:                corev1.RestartPolicyNever,
		AutomountServiceAccountToken: ptr.To(false),
		EnableServiceLinks:           ptr.To(false),
		NodeSelector:                 c.NodeSelector,
		SecurityContext: &corev1.PodSecurityContext{
			RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To(int64(65532)), RunAsGroup: ptr.To(int64(65532)),
			SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
		},
		Containers: []corev1.Container{{
			Name:       container,
			Image:      c.Image,
			Command:    []string{"sieve", "internal", "worker"},
			Args:       c.WorkerArgs(),
			WorkingDir: Root,
			Env:        c.env(),
			Resources:  res,
			SecurityContext: &corev1.SecurityContext{
				AllowPrivilegeEscalation: ptr.To(false),
				ReadOnlyRootFilesystem:   ptr.To(true),
				Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
			},
			VolumeMounts:             []corev1.VolumeMount{{Name: "tmp", MountPath: Tmp}},
			TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
		}},
		Volumes: []corev1.Volume{{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
	}
	c.addSecrets(&spec)
	return spec, nil
}

// WorkerArgs are the arguments of sieve internal worker in each pod; the
// pod's JOB_COMPLETION_INDEX picks the shard.
func (c *Campaign) WorkerArgs() []string {
	args := []string{"--bundle", ManifestFile, "--test", c.Test, "--shards", strconv.Itoa(c.Shards),
		"--artifacts", c.Artifacts, "--campaign", c.Name}
	if len(c.RunArgs) > 0 {
		args = append(append(args, "--"), c.RunArgs...)
	}
	return args
}

func (c *Campaign) env() []corev1.EnvVar {
	var env []corev1.EnvVar
	for _, kv := range Env() {
		k, v, _ := strings.Cut(kv, "=")
		env = append(env, corev1.EnvVar{Name: k, Value: v})
	}
	if c.PushSecret != "" {
		env = append(env, corev1.EnvVar{Name: "DOCKER_CONFIG", Value: "/sieve-auth"})
	}
	return env
}

// addSecrets mounts the push secret's .dockerconfigjson as
// /sieve-auth/config.json and names the pull secret.
func (c *Campaign) addSecrets(spec *corev1.PodSpec) {
	if c.PullSecret != "" {
		spec.ImagePullSecrets = []corev1.LocalObjectReference{{Name: c.PullSecret}}
	}
	if c.PushSecret == "" {
		return
	}
	spec.Volumes = append(spec.Volumes, corev1.Volume{Name: "auth", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{
		SecretName: c.PushSecret, Items: []corev1.KeyToPath{{Key: corev1.DockerConfigJsonKey, Path: "config.json"}},
	}}})
	ct := &spec.Containers[0]
	ct.VolumeMounts = append(ct.VolumeMounts, corev1.VolumeMount{Name: "auth", MountPath: "/sieve-auth", ReadOnly: true})
}

// quantity reads the request s of resource what: a quantity more than
// zero, such as the examples.
func quantity(what, s, examples string) (resource.Quantity, error) {
	q, err := resource.ParseQuantity(s)
	if err != nil || q.Sign() <= 0 {
		return q, fmt.Errorf("%s %q: want a quantity more than zero (%s)", what, diag.Quote(s), examples)
	}
	return q, nil
}

// resources are the worker's requests and limits: a memory limit of twice
// the request, no CPU limit (throttling a control plane makes its
// timeouts fire, not the plan run cheaper).
func (c *Campaign) resources() (corev1.ResourceRequirements, error) {
	cpu, err := quantity("cpu", cmp.Or(c.CPU, Cost.CPU), "1, 500m")
	if err != nil {
		return corev1.ResourceRequirements{}, err
	}
	mem, err := quantity("memory", cmp.Or(c.Memory, Cost.Memory), "1Gi, 800Mi")
	if err != nil {
		return corev1.ResourceRequirements{}, err
	}
	limit := mem.DeepCopy()
	limit.Add(mem)
	return corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: cpu, corev1.ResourceMemory: mem},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: limit},
	}, nil
}
