// std/invariants: properties most controllers of stateful applications
// should keep, parameterised by the objects they name.
//
//   import "std/invariants"
//   test t {
//     ...
//     invariants [
//       invariants.exists("service", "ds-client"),
//       invariants.claims_kept(set = "ds", replicas = 3),
//     ]
//   }
//
// Each parameter is a CEL constant of the expression: a string, or an
// integer for replicas.

// exists holds when the object KIND/NS/NAME exists at the end of the run
// and is not being deleted: the controller created it, or did not lose
// it to a fault.
invariant exists(kind, name, ns = "default") end `
  object(kind, ns, name) != null && !has(object(kind, ns, name).metadata.deletionTimestamp)
`

// claims_kept holds when, at the end of the run, every ordinal below
// replicas of the StatefulSet set still has its claim CLAIM-SET-i, not
// being deleted: a scale-down that deleted a live member's volume (the
// zookeeper-operator #312 shape) breaks it.
invariant claims_kept(set, replicas, claim = "data", ns = "default") end `
  lists.range(replicas).all(i,
    object("persistentvolumeclaim", ns, claim + "-" + set + "-" + string(i)) != null &&
    !has(object("persistentvolumeclaim", ns, claim + "-" + set + "-" + string(i)).metadata.deletionTimestamp))
`
