package embedded

// EtcdEndpoint returns the URL of c's etcd and the directory of its
// certificates, for tests of who may reach etcd.
func EtcdEndpoint(c *Cluster) (url, pki string) {
	return c.layout.etcdURL(), c.layout.path("pki")
}
