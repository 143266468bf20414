// Package standin runs a run's stand-ins: a program per Service that the
// controller talks to (ir.Standin), started in the controller's private
// network before the controller and stopped with the run, so every plan
// starts from fresh ones. Stand-in i listens on its own loopback address
// (Addr), which the DNS responder answers for the Service's names (Names);
// its output goes to standin-SERVICE.log in the run's directory. A pod
// stand-in (ir.Standin.Pods) serves every pod its selector matches:
// sieve makes each pod's IP local to the network, listens on it and the
// stand-in's ports while the pod matches, and relays each connection to
// the program from the pod's IP, keeping its pod map (PodsFile) current.
// Each is the root of a process tree that ends with it (package
// proctree: a PID namespace of its own where possible), daemons included.
//
// It does not make the network (package netns) nor answer DNS (package
// clusterdns).
package standin
