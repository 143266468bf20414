package component

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	_ "unsafe" // for go:linkname

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/apiserver/pkg/server/healthz"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	schedulingv1 "k8s.io/kubernetes/pkg/apis/scheduling/v1"
	rbacrest "k8s.io/kubernetes/pkg/registry/rbac/rest"
	schedulingrest "k8s.io/kubernetes/pkg/registry/scheduling/rest"
	"k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac/bootstrappolicy"
)

// The API server's two bootstrap post-start hooks, rbac/bootstrap-roles
// and scheduling/bootstrap-system-priority-classes, poll with
// wait.Poll(1s), which sleeps a whole second before the first attempt, and
// /healthz waits for them. bootstrapHooks replaces them with the same work
// from the first moment, retried every bootstrapRetry, so that the cluster
// is ready about 1.3 s sooner (docs/controlplane.md):
//
//   - sieve/bootstrap-system-priority-classes is a post-start hook.
//   - The roles take most of a second to create (a few hundred requests),
//     and the controller manager, which runs with an admin identity, does
//     not need them: sieve/start-bootstrap-roles only starts that work,
//     and the readiness check sieve-bootstrap-roles fails until it is
//     done. So the controller manager, which waits for /healthz, starts
//     meanwhile, and /readyz still says whether the roles are in place. A
//     failure ends the API server, as the stock hook's does.
const (
	bootstrapRetry   = 50 * time.Millisecond
	bootstrapTimeout = 30 * time.Second // as the stock hooks
)

// bootstrapHooks disables the two stock hooks in cfg and adds their
// replacements. It returns the readiness check of the roles, for the
// outermost server of the chain to add: readiness-only checks of a
// delegate are not the outer server's.
func bootstrapHooks(cfg *genericapiserver.Config) (healthz.HealthChecker, error) {
	cfg.DisabledPostStartHooks.Insert(rbacrest.PostStartHookName, schedulingrest.PostStartHookName)
	if err := cfg.AddPostStartHook("sieve/"+schedulingrest.PostStartHookName, bootstrapPriorityClasses); err != nil {
		return nil, err
	}
	rolesDone := make(chan struct{})
	err := cfg.AddPostStartHook("sieve/start-bootstrap-roles", func(hook genericapiserver.PostStartHookContext) error {
		go func() {
			err := bootstrapRoles(hook)
			switch {
			case hook.Err() != nil: // the server is stopping
			case err != nil:
				klog.Fatalf("%s: %v", rbacrest.PostStartHookName, err)
			default:
				close(rolesDone)
			}
		}()
		return nil
	})
	return healthz.NamedCheck("sieve-bootstrap-roles", func(*http.Request) error {
		select {
		case <-rolesDone:
			return nil
		default:
			return errors.New("bootstrap roles not in place yet")
		}
	}), err
}

// ensureRBACPolicy is one attempt of the stock rbac/bootstrap-roles hook:
// it creates or reconciles the bootstrap roles and bindings and says
// whether all of them are in place. Its signature must match
// k8s.io/kubernetes/pkg/registry/rbac/rest's at the pinned version
// (go.mod); a mismatch is not caught at build time, and every test that
// starts a cluster would fail.
//
//go:linkname ensureRBACPolicy k8s.io/kubernetes/pkg/registry/rbac/rest.ensureRBACPolicy
func ensureRBACPolicy(p *rbacrest.PolicyData, client kubernetes.Interface) (done bool, err error)

// bootstrapRoles is rbac/bootstrap-roles without the first second: the
// same policy data and the same attempt, which compares the objects as
// listed at its start (rbacSnapshot).
func bootstrapRoles(hook genericapiserver.PostStartHookContext) error {
	policy := bootstrapPolicy()
	client, err := kubernetes.NewForConfig(hook.LoopbackClientConfig)
	if err != nil {
		return fmt.Errorf("unable to initialize roles: %w", err)
	}
	err = wait.PollUntilContextTimeout(hook, bootstrapRetry, bootstrapTimeout, true, func(ctx context.Context) (bool, error) {
		snap, err := newRBACSnapshot(ctx, client)
		if err != nil {
			klog.Infof("going to retry: %v", err)
			return false, nil
		}
		return ensureRBACPolicy(policy, snap)
	})
	if err != nil {
		return fmt.Errorf("unable to initialize roles: %w", err)
	}
	return nil
}

// bootstrapPolicy is the policy data of RESTStorageProvider.PostStartHook.
func bootstrapPolicy() *rbacrest.PolicyData {
	return &rbacrest.PolicyData{
		ClusterRoles:               append(bootstrappolicy.ClusterRoles(), bootstrappolicy.ControllerRoles()...),
		ClusterRoleBindings:        append(bootstrappolicy.ClusterRoleBindings(), bootstrappolicy.ControllerRoleBindings()...),
		Roles:                      bootstrappolicy.NamespaceRoles(),
		RoleBindings:               bootstrappolicy.NamespaceRoleBindings(),
		ClusterRolesToAggregate:    bootstrappolicy.ClusterRolesToAggregate(),
		ClusterRoleBindingsToSplit: bootstrappolicy.ClusterRoleBindingsToSplit(),
	}
}

// bootstrapPriorityClasses is scheduling/bootstrap-system-priority-classes
// without the first second: it creates the system priority classes that
// do not exist, retrying on any error but a rejected create.
func bootstrapPriorityClasses(hook genericapiserver.PostStartHookContext) error {
	client, err := kubernetes.NewForConfig(hook.LoopbackClientConfig)
	if err != nil {
		return fmt.Errorf("unable to add default system priority classes: %w", err)
	}
	classes := client.SchedulingV1().PriorityClasses()
	err = wait.PollUntilContextTimeout(hook, bootstrapRetry, bootstrapTimeout, true, func(ctx context.Context) (bool, error) {
		for _, pc := range schedulingv1.SystemPriorityClasses() {
			_, err := classes.Create(ctx, pc, metav1.CreateOptions{})
			switch {
			case err == nil:
				klog.Infof("created PriorityClass %s with value %v", pc.Name, pc.Value)
			case apierrors.IsAlreadyExists(err):
			case apierrors.IsInvalid(err) || apierrors.IsForbidden(err):
				return false, err
			default:
				klog.Infof("going to retry, unable to create PriorityClass %s: %v", pc.Name, err)
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("unable to add default system priority classes: %w", err)
	}
	return nil
}
