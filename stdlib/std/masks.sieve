// std/masks: fields that differ between two fault-free runs of the same
// workload, so the differential oracle must not compare them.
//
//   import "std/masks"
//   test t { ... masks [masks.default] }
//
// masks.default is the set the Sieve study found necessary for every
// controller (see its built-in and learned masks). masks.restarts adds
// container restart bookkeeping, for workloads that restart pods on
// purpose. sieve also learns masks from its own reference runs; these are
// the ones that are known in advance.

// default masks identity and bookkeeping fields, volatile status, and the
// per-kind fields Kubernetes fills with values that change from run to run.
mask default {
  // Identity and bookkeeping, at any depth (ownerReferences carry uids too).
  key uid
  key resourceVersion
  key generation
  key managedFields
  key creationTimestamp
  key containerID
  key imageID

  // Client-side apply stores the whole previous object here.
  path metadata.annotations."kubectl.kubernetes.io/last-applied-configuration"

  // Condition times and observed generations move with timing, not state.
  path status.conditions[*].lastTransitionTime
  path status.conditions[*].lastUpdateTime
  path status.conditions[*].lastProbeTime
  path status.conditions[*].lastHeartbeatTime
  path status.conditions[*].observedGeneration
  path status.observedGeneration

  // Pods: placement, addresses and start times.
  pod/*/* path spec.nodeName
  pod/*/* path status.podIP
  pod/*/* path status.podIPs
  pod/*/* path status.hostIP
  pod/*/* path status.hostIPs
  pod/*/* path status.startTime
  pod/*/* path status.containerStatuses[*].state
  pod/*/* path status.initContainerStatuses[*].state
  pod/*/* path metadata.labels."pod-template-hash"
  pod/*/* path metadata.labels."controller-revision-hash"

  // ReplicaSets carry a hash of their pod template in labels and selector.
  replicaset/*/* path metadata.labels."pod-template-hash"
  replicaset/*/* path spec.selector.matchLabels."pod-template-hash"
  replicaset/*/* path spec.template.metadata.labels."pod-template-hash"

  // Bound volumes get generated names.
  persistentvolumeclaim/*/* path spec.volumeName

  // Endpoints follow pod IPs.
  endpoints/*/* path subsets
  endpointslice/*/* path endpoints

  // Leader election: who holds the lease, and since when.
  lease/*/* path spec.holderIdentity
  lease/*/* path spec.acquireTime
  lease/*/* path spec.renewTime
  lease/*/* path spec.leaseTransitions
  // The older lock: a ConfigMap's or Endpoints' annotation with the same record.
  configmap/*/* path metadata.annotations."control-plane.alpha.kubernetes.io/leader"
  endpoints/*/* path metadata.annotations."control-plane.alpha.kubernetes.io/leader"

  // Events are a log, not state.
  event/*/* whole

  // Any string that looks like a timestamp or an IP address.
  value timestamp
  value ip

  // Addresses and ports the cluster allocates: a Service's cluster IPs and
  // node ports, and the IPAddress objects that reserve the cluster IPs.
  // (Objects named differently in each run need no mask: the oracle
  // compares generated names, ControllerRevisions named by a template hash
  // and IPAddresses by number per name prefix.)
  service/*/* path spec.clusterIP
  service/*/* path spec.clusterIPs
  service/*/* path spec.ports[*].nodePort
  service/*/* path spec.healthCheckNodePort
  ipaddress/*/* whole
}

// restarts masks container restart counts and last states, for workloads
// that restart pods on purpose. Use it with default: masks [masks.default,
// masks.restarts].
mask restarts {
  pod/*/* path status.containerStatuses[*].restartCount
  pod/*/* path status.containerStatuses[*].lastState
  pod/*/* path status.initContainerStatuses[*].restartCount
  pod/*/* path status.initContainerStatuses[*].lastState
}
