package proxy

import "net"

// Serve serves the proxy on l too, until Close: a listener made in the
// controller's private network (package netns), where Host's address is
// out of reach. l's address must be a loopback one, which the proxy's
// certificate names.
func (p *Proxy) Serve(l net.Listener) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		_ = p.srv.ServeTLS(l, "", "")
	}()
}
