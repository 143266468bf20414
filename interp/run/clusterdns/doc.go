// Package clusterdns answers the DNS queries of a controller in its
// private network as a cluster's DNS would: SERVICE.NS.svc.cluster.local
// with the Service's cluster IP (or, headless, its ready endpoints),
// HOST.SERVICE.NS.svc.cluster.local with the IP of the pod with that
// hostname and subdomain (a StatefulSet's pods), and names given a fixed
// address first (the stand-ins). It reads the cluster at each query, so it
// is never stale; other names get NXDOMAIN. With the search path of
// ResolvConf, short names (SERVICE, SERVICE.NS, SERVICE.NS.svc) resolve
// as in a pod of the namespace.
//
// It does not choose where it listens (package netns gives the socket)
// nor start the stand-ins (package standin does).
package clusterdns
