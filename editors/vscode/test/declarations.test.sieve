// SYNTAX TEST "source.sieve" "declarations, blocks and attributes"

import "std/faults"
// <------ keyword.control.import.sieve
import lib "./lib.sieve"
//     ^^^ entity.name.namespace.sieve
//         ^^^^^^^^^^^^^ string.quoted.double.sieve

controller datastore {
// <---------- storage.type.controller.sieve
//         ^^^^^^^^^ entity.name.type.sieve
//                   ^ punctuation.section.block.begin.sieve
  build     "./controller"
//^^^^^ entity.other.attribute-name.sieve
  ready     { log: "Starting workers", within: 30s }
//^^^^^ entity.other.attribute-name.sieve
//            ^^^ meta.object.sieve variable.other.property.sieve
//                                     ^^^^^^ meta.object.sieve variable.other.property.sieve - keyword.other.sieve
//                                             ^^^ constant.numeric.duration.sieve
  env       { "app.kubernetes.io/name": "web", A: "1" }
//            ^^^^^^^^^^^^^^^^^^^^^^^^ meta.object.sieve string.quoted.double.sieve
//                                    ^ punctuation.separator.key-value.sieve
//                                      ^^^^^ string.quoted.double.sieve
  pod {
//^^^ entity.other.attribute-name.sieve
    labels: { name: "zk" } // nested
//  ^^^^^^ variable.other.property.sieve - entity.other.attribute-name.sieve
//            ^^^^ variable.other.property.sieve
  }
  namespace "default"
//^^^^^^^^^ entity.other.attribute-name.sieve
}

policy sts_only {
// <------ storage.type.policy.sieve
//     ^^^^^^^^ entity.name.type.sieve
  patterns  [intermediate, stale, unobserved]
//^^^^^^^^ entity.other.attribute-name.sieve
//                         ^^^^^ variable.other.sieve - keyword.control.action.sieve
  include   [statefulset/*/*, { target: pod/default/ds-*, verbs: [delete] }]
//           ^^^^^^^^^^^^^^^ constant.other.key.sieve
//                              ^^^^^^ variable.other.property.sieve
//                                      ^^^^^^^^^^^^^^^^ constant.other.key.sieve
//                                                                ^^^^^^ variable.other.sieve - keyword.control.step.sieve
}

test buggy {
// <---- storage.type.test.sieve
//   ^^^^^ entity.name.type.sieve
  controller datastore
//^^^^^^^^^^ entity.other.attribute-name.sieve - storage.type.controller.sieve
//           ^^^^^^^^^ variable.other.sieve
  workloads  [recreate(replicas = 3), lib.touch]
//            ^^^^^^^^ entity.name.function.sieve
//                     ^^^^^^^^ variable.parameter.sieve
//                              ^ keyword.operator.assignment.sieve
//                                    ^^^ variable.other.sieve
  policies   [
    faults.intermediate,
//  ^^^^^^ variable.other.sieve - entity.other.attribute-name.sieve
  ]
}

test fixed : buggy {
//   ^^^^^ entity.name.type.sieve
//         ^ punctuation.separator.inheritance.sieve
//           ^^^^^ entity.other.inherited-class.sieve
  args += ["--fixed"]
//^^^^ entity.other.attribute-name.sieve
}

mask noisy {
// <---- storage.type.mask.sieve
//   ^^^^^ entity.name.type.sieve
  key uid // any depth
//^^^ keyword.other.sieve
//    ^^^ variable.other.property.sieve
  path status.conditions[*].lastTransitionTime
//^^^^ keyword.other.sieve
//     ^^^^^^ variable.other.property.sieve
//                       ^ keyword.operator.wildcard.sieve
//                          ^^^^^^^^^^^^^^^^^^ variable.other.property.sieve
  value timestamp
//^^^^^ keyword.other.sieve
  replicaset/*/* key "pod-template-hash" in end
//^^^^^^^^^^^^^^ constant.other.key.sieve
//               ^^^ keyword.other.sieve
//                                       ^^ keyword.other.sieve
//                                          ^^^ keyword.other.sieve
  lease/kube-system/* whole
//                    ^^^^^ keyword.other.sieve
}

invariant pvcs always `
// <--------- storage.type.invariant.sieve
//        ^^^^ entity.name.function.sieve
//             ^^^^^^ keyword.other.sieve
//                    ^ meta.embedded.cel.sieve string.quoted.other.raw.sieve punctuation.definition.string.begin.sieve
  objects("persistentvolumeclaim", "default")
//^^^^^^^ meta.embedded.cel.sieve source.cel entity.name.function.cel
//        ^^^^^^^^^^^^^^^^^^^^^^^ source.cel string.quoted.double.cel
    .filter(p, p.metadata.name.startsWith('data-') && !has(p.metadata.deletionTimestamp)).size() <= 3
//   ^^^^^^ entity.name.function.cel
//               ^^^^^^^^ variable.other.cel
//                                        ^^^^^^^ string.quoted.single.cel
//                                                 ^^ keyword.operator.cel
//                                                    ^ keyword.operator.cel
//                                                                                               ^^ keyword.operator.cel
//                                                                                                  ^ constant.numeric.cel
`
// <- string.quoted.other.raw.sieve punctuation.definition.string.end.sieve
test after_invariant {}
// <---- storage.type.test.sieve - meta.declaration.invariant.sieve

invariant claim_kept(name, ns = "default") eventually between resize[2] and resize[4] "object(\"pod\", ns, name) == null"
//        ^^^^^^^^^^ entity.name.function.sieve
//                   ^^^^ variable.parameter.sieve
//                         ^^ variable.parameter.sieve
//                              ^^^^^^^^^ string.quoted.double.sieve
//                                         ^^^^^^^^^^ keyword.other.sieve
//                                                    ^^^^^^^ keyword.other.sieve
//                                                            ^^^^^^ variable.other.sieve
//                                                                   ^ constant.numeric.sieve
//                                                                      ^^^ keyword.other.sieve
//                                                                                    ^^^^^^^^ string.quoted.double.sieve
//                                                                                            ^^ constant.character.escape.sieve
controller after_string {}
// <---------- storage.type.controller.sieve - meta.declaration.invariant.sieve
