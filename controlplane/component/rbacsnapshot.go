package component

import (
	"context"
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	rbacv1client "k8s.io/client-go/kubernetes/typed/rbac/v1"
)

// rbacSnapshot is a client for one attempt of ensureRBACPolicy. The
// reconciliation gets each of the 141 roles and bindings of the bootstrap
// policy before comparing it with the policy, one request each; on a
// seeded cluster (etcd starts with them) those requests were all it did,
// and /readyz waited a quarter of a second for them. rbacSnapshot lists
// each kind once and answers a get of an object the lists hold from them;
// everything else, and a get of an object they lack, goes to the API
// server. An update based on a listed object that changed since is
// refused as a conflict, as one based on a get would be, and the next
// attempt lists again.
type rbacSnapshot struct {
	kubernetes.Interface
	rbac rbacSnapshotV1
}

func (s *rbacSnapshot) RbacV1() rbacv1client.RbacV1Interface { return s.rbac }

// newRBACSnapshot lists the roles and bindings of every namespace.
func newRBACSnapshot(ctx context.Context, client kubernetes.Interface) (*rbacSnapshot, error) {
	api := client.RbacV1()
	s := rbacSnapshotV1{RbacV1Interface: api}
	var err error
	if s.clusterRoles, err = listed(ctx, api.ClusterRoles().List, func(l *rbacv1.ClusterRoleList) []rbacv1.ClusterRole { return l.Items }); err != nil {
		return nil, err
	}
	if s.clusterRoleBindings, err = listed(ctx, api.ClusterRoleBindings().List, func(l *rbacv1.ClusterRoleBindingList) []rbacv1.ClusterRoleBinding { return l.Items }); err != nil {
		return nil, err
	}
	if s.roles, err = listed(ctx, api.Roles("").List, func(l *rbacv1.RoleList) []rbacv1.Role { return l.Items }); err != nil {
		return nil, err
	}
	if s.roleBindings, err = listed(ctx, api.RoleBindings("").List, func(l *rbacv1.RoleBindingList) []rbacv1.RoleBinding { return l.Items }); err != nil {
		return nil, err
	}
	return &rbacSnapshot{Interface: client, rbac: s}, nil
}

// snapshot holds listed objects by namespace and name.
type snapshot[T any] map[[2]string]*T

// listed lists objects of one kind into a snapshot.
func listed[L any, T any, PT interface {
	*T
	metav1.Object
}](ctx context.Context, list func(context.Context, metav1.ListOptions) (L, error), items func(L) []T) (snapshot[T], error) {
	l, err := list(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("listing the bootstrap policy's objects: %w", err)
	}
	objs := items(l)
	s := make(snapshot[T], len(objs))
	for i := range objs {
		o := PT(&objs[i])
		s[[2]string{o.GetNamespace(), o.GetName()}] = &objs[i]
	}
	return s, nil
}

// get answers a get from the snapshot (a copy: the reconciliation edits
// what it gets), or else with fallback.
func get[T any, PT interface {
	*T
	runtime.Object
}](s snapshot[T], namespace, name string, fallback func() (PT, error)) (PT, error) {
	if o, ok := s[[2]string{namespace, name}]; ok {
		return PT(o).DeepCopyObject().(PT), nil
	}
	return fallback()
}

type rbacSnapshotV1 struct {
	rbacv1client.RbacV1Interface
	clusterRoles        snapshot[rbacv1.ClusterRole]
	clusterRoleBindings snapshot[rbacv1.ClusterRoleBinding]
	roles               snapshot[rbacv1.Role]
	roleBindings        snapshot[rbacv1.RoleBinding]
}

func (s rbacSnapshotV1) ClusterRoles() rbacv1client.ClusterRoleInterface {
	return clusterRoles{s.RbacV1Interface.ClusterRoles(), s.clusterRoles}
}

func (s rbacSnapshotV1) ClusterRoleBindings() rbacv1client.ClusterRoleBindingInterface {
	return clusterRoleBindings{s.RbacV1Interface.ClusterRoleBindings(), s.clusterRoleBindings}
}

func (s rbacSnapshotV1) Roles(namespace string) rbacv1client.RoleInterface {
	return roles{s.RbacV1Interface.Roles(namespace), namespace, s.roles}
}

func (s rbacSnapshotV1) RoleBindings(namespace string) rbacv1client.RoleBindingInterface {
	return roleBindings{s.RbacV1Interface.RoleBindings(namespace), namespace, s.roleBindings}
}

type clusterRoles struct {
	rbacv1client.ClusterRoleInterface
	snap snapshot[rbacv1.ClusterRole]
}

func (c clusterRoles) Get(ctx context.Context, name string, opts metav1.GetOptions) (*rbacv1.ClusterRole, error) {
	return get(c.snap, "", name, func() (*rbacv1.ClusterRole, error) { return c.ClusterRoleInterface.Get(ctx, name, opts) })
}

type clusterRoleBindings struct {
	rbacv1client.ClusterRoleBindingInterface
	snap snapshot[rbacv1.ClusterRoleBinding]
}

func (c clusterRoleBindings) Get(ctx context.Context, name string, opts metav1.GetOptions) (*rbacv1.ClusterRoleBinding, error) {
	return get(c.snap, "", name, func() (*rbacv1.ClusterRoleBinding, error) { return c.ClusterRoleBindingInterface.Get(ctx, name, opts) })
}

type roles struct {
	rbacv1client.RoleInterface
	namespace string
	snap      snapshot[rbacv1.Role]
}

func (c roles) Get(ctx context.Context, name string, opts metav1.GetOptions) (*rbacv1.Role, error) {
	return get(c.snap, c.namespace, name, func() (*rbacv1.Role, error) { return c.RoleInterface.Get(ctx, name, opts) })
}

type roleBindings struct {
	rbacv1client.RoleBindingInterface
	namespace string
	snap      snapshot[rbacv1.RoleBinding]
}

func (c roleBindings) Get(ctx context.Context, name string, opts metav1.GetOptions) (*rbacv1.RoleBinding, error) {
	return get(c.snap, c.namespace, name, func() (*rbacv1.RoleBinding, error) { return c.RoleBindingInterface.Get(ctx, name, opts) })
}
