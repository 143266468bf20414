// Package nodesim simulates the kubelets and the storage provisioner of the
// embedded control plane, with client-go only.
//
// It registers Ready fake nodes and renews their leases; pods bound to them
// become Running and Ready with an IP and container statuses (pods owned by
// a Job succeed after a short run); a pod with a deletionTimestamp stays
// terminating for a short grace and is then deleted as a kubelet would; a
// PVC of any storage class gets a PersistentVolume pre-bound to it (the
// persistentvolume-binder controller completes the binding), grows when its
// request grows, and a released volume is deleted. A default StorageClass is
// installed. It reports how much it has yet to do (Options.Pending: a pod
// in its termination grace, a Job's pod running, a change not yet acted
// on), which the cluster's objects do not show, so that sieve does not take
// a cluster whose pods are still terminating for a still one. It owns no
// process and no flags: the component package runs it.
package nodesim
