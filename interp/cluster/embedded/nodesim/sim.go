package nodesim

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// Options tune the simulation. The zero value is the default.
type Options struct {
	// Nodes is how many fake nodes to register (default 1).
	Nodes int
	// NodePrefix names the nodes NodePrefix0, NodePrefix1, ... (default
	// "sieve-node-").
	NodePrefix string
	// TerminationGrace is how long a deleted pod stays terminating before
	// the simulated kubelet removes it (default 500ms; never longer than
	// the pod's own grace period).
	TerminationGrace time.Duration
	// JobPodRun is how long a pod owned by a Job runs before it succeeds
	// (default 1s).
	JobPodRun time.Duration
	// LeaseRenew is how often node leases are renewed (default 10s).
	LeaseRenew time.Duration
	// StorageClass is the name of the default StorageClass (default
	// "standard").
	StorageClass string
	// Pending, if set, is called with the number of things the simulator
	// has yet to do each time it changes: changes it has seen and not yet
	// acted on, and timers it set (a pod in its termination grace, a Job's
	// pod running, a retry after an error), which the cluster does not
	// show. 0: what it does next waits for a change in the cluster. Lease
	// renewals are not counted: they are heartbeats.
	Pending func(n int)
}

// Provisioner is the provisioner name of the default StorageClass and of
// the volumes nodesim creates.
const Provisioner = "sieve.dev/nodesim"

func (o Options) withDefaults() Options {
	if o.Nodes <= 0 {
		o.Nodes = 1
	}
	if o.NodePrefix == "" {
		o.NodePrefix = "sieve-node-"
	}
	if o.TerminationGrace <= 0 {
		o.TerminationGrace = 500 * time.Millisecond
	}
	if o.JobPodRun <= 0 {
		o.JobPodRun = time.Second
	}
	if o.LeaseRenew <= 0 {
		o.LeaseRenew = 10 * time.Second
	}
	if o.StorageClass == "" {
		o.StorageClass = "standard"
	}
	return o
}

// NodeNames returns the names of the nodes the options describe.
func (o Options) NodeNames() []string {
	o = o.withDefaults()
	names := make([]string, o.Nodes)
	for i := range names {
		names[i] = fmt.Sprintf("%s%d", o.NodePrefix, i)
	}
	return names
}

// sim is one running simulation.
type sim struct {
	opts   Options
	client kubernetes.Interface
	nodes  map[string]int // name -> index

	pods    corelisters.PodLister
	pvcs    corelisters.PersistentVolumeClaimLister
	pvs     corelisters.PersistentVolumeLister
	podQ    workqueue.TypedRateLimitingInterface[string]
	volumeQ workqueue.TypedRateLimitingInterface[string]

	mu          sync.Mutex
	terminating map[types.UID]time.Time // first time a pod was seen terminating

	pending pending
}

// Run registers the nodes and simulates them until ctx ends.
func Run(ctx context.Context, client kubernetes.Interface, opts Options) error {
	s := newSim(client, opts.withDefaults())
	if err := s.setupRetrying(ctx); err != nil {
		return err
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	s.watch(factory)
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	go s.renewLeases(ctx)
	go s.work(ctx, s.podQ, s.syncPod)
	go s.work(ctx, s.volumeQ, s.syncVolume)
	<-ctx.Done()
	s.podQ.ShutDown()
	s.volumeQ.ShutDown()
	factory.Shutdown()
	return nil
}

func newSim(client kubernetes.Interface, opts Options) *sim {
	limiter := func() workqueue.TypedRateLimiter[string] {
		return workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, time.Second)
	}
	s := &sim{
		opts:        opts,
		client:      client,
		nodes:       map[string]int{},
		podQ:        workqueue.NewTypedRateLimitingQueue(limiter()),
		volumeQ:     workqueue.NewTypedRateLimitingQueue(limiter()),
		terminating: map[types.UID]time.Time{},
	}
	for i, n := range opts.NodeNames() {
		s.nodes[n] = i
	}
	s.pending.report = opts.Pending
	s.pending.queues = []workqueue.TypedRateLimitingInterface[string]{s.podQ, s.volumeQ}
	return s
}

// setupRetrying runs setup until it succeeds: nodesim may start while
// the API server still creates its system namespaces.
func (s *sim) setupRetrying(ctx context.Context) error {
	for {
		err := s.setup(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("nodesim setup: %w (last error: %v)", ctx.Err(), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// setup installs the default StorageClass and registers the nodes.
func (s *sim) setup(ctx context.Context) error {
	if err := s.ensureStorageClass(ctx); err != nil {
		return err
	}
	for name, i := range s.nodes {
		if err := s.registerNode(ctx, name, i); err != nil {
			return err
		}
	}
	return nil
}

// watch connects the informers to the work queues.
func (s *sim) watch(factory informers.SharedInformerFactory) {
	pods := factory.Core().V1().Pods()
	s.pods = pods.Lister()
	pods.Informer().AddEventHandler(s.handler(s.podQ))
	pvcs := factory.Core().V1().PersistentVolumeClaims()
	s.pvcs = pvcs.Lister()
	pvcs.Informer().AddEventHandler(s.handler(s.volumeQ))
	pvs := factory.Core().V1().PersistentVolumes()
	s.pvs = pvs.Lister()
	pvs.Informer().AddEventHandler(s.handler(s.volumeQ))
}

// volumeKey distinguishes PVs (cluster-scoped) from PVC keys "ns/name".
const pvKeyPrefix = "pv:"

// handler queues the key of every object that changes in q.
func (s *sim) handler(q workqueue.TypedRateLimitingInterface[string]) cache.ResourceEventHandlerFuncs {
	add := func(obj any) {
		key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
		if err != nil {
			return
		}
		if _, ok := obj.(*corev1.PersistentVolume); ok {
			key = pvKeyPrefix + key
		}
		q.Add(key)
		s.pending.changed()
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    add,
		UpdateFunc: func(_, obj any) { add(obj) },
		DeleteFunc: add,
	}
}

// work processes queue items until the queue shuts down.
func (s *sim) work(ctx context.Context, q workqueue.TypedRateLimitingInterface[string], sync func(context.Context, string) (time.Duration, error)) {
	for {
		key, quit := q.Get()
		if quit {
			return
		}
		s.pending.begin(q, key)
		after, err := sync(ctx, key)
		switch {
		case err != nil:
			q.AddRateLimited(key)
		case after > 0:
			q.Forget(key)
			q.AddAfter(key, after)
		default:
			q.Forget(key)
		}
		q.Done(key)
		s.pending.end(q, key, err != nil || after > 0)
	}
}
