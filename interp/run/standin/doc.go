// Package standin runs a run's stand-ins (ir.Standin): a program per
// Service that the controller talks to. They start in the controller's
// private network before the controller and stop with the run, so every
// plan starts from fresh ones. Stand-in i listens on its own loopback
// address (Addr, 127.1.0.i+1). The DNS responder answers the Service's
// names with another (Names, 127.2.0.i+1), where sieve listens on its
// ports and relays each connection to the program. Its output goes to
// standin-SERVICE.log in the run's directory (LogFile).
//
// A pod stand-in (ir.Standin.Pods) serves every pod that its selector
// matches. While a pod matches, sieve makes the pod's IP local to the
// network and listens on it and the stand-in's ports. It relays each
// connection to the program from the pod's IP, and keeps the program's
// pod map current (PodsFile). Each stand-in is the root of a process tree
// that ends with it, daemons included (package proctree: a PID namespace
// of its own where possible).
//
// Every connection relayed, to a Service or a pod, is recorded in the
// run's trace through Options.Sink (package relay).
//
// It does not make the network (package netns) nor answer DNS (package
// clusterdns).
package standin
