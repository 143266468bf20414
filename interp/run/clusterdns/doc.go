// Package clusterdns answers the DNS queries of a controller in its
// private network as a cluster's DNS would. SERVICE.NS.svc.cluster.local
// resolves to the Service's cluster IP, or, for a headless Service, to its
// ready endpoints. HOST.SERVICE.NS.svc.cluster.local resolves to the IP of
// the pod with that hostname and subdomain (a StatefulSet's pods). Names
// given a fixed address (the stand-ins) are answered first. The Server
// reads the cluster at each query, so it is never stale; other names get
// NXDOMAIN. With the search path of ResolvConf, short names (SERVICE,
// SERVICE.NS, SERVICE.NS.svc) resolve as in a pod of the namespace.
//
// It does not choose where it listens (the caller gives the socket, from
// package netns) nor start the stand-ins (package standin does).
package clusterdns
