// SYNTAX TEST "source.sieve" "workload steps and plan steps"

workload scale_up(name = "web", replicas = 5, quiet = 5s) {
// <-------- storage.type.workload.sieve
//       ^^^^^^^^ entity.name.function.sieve
//                ^^^^ meta.parameters.sieve variable.parameter.sieve
//                              ^^^^^^^^ variable.parameter.sieve
//                                            ^^^^^ variable.parameter.sieve
//                                                    ^^ constant.numeric.duration.sieve
  apply  "web.yaml" set { metadata.name: name, spec.replicas: replicas + 1 }
//^^^^^ keyword.control.step.sieve
//                  ^^^ keyword.other.sieve
//                        ^^^^^^^^ variable.other.property.sieve
//                                       ^^^^ variable.other.sieve
//                                                            ^^^^^^^^ variable.other.sieve
  apply `
//^^^^^ keyword.control.step.sieve
//      ^ string.quoted.other.raw.sieve
kind: Pod
// <--------- string.quoted.other.raw.sieve - variable.other.property.sieve
`
  wait   deployment/default/${name} ready within 60s else continue
//^^^^ keyword.control.step.sieve
//       ^^^^^^^^^^^^^^^^^^^^^^^^^^ constant.other.key.sieve
//                                  ^^^^^ keyword.other.sieve
//                                        ^^^^^^ keyword.other.sieve
//                                                   ^^^^ keyword.other.sieve
//                                                        ^^^^^^^^ keyword.other.sieve
  scale  deployment/default/${name} to replicas
//^^^^^ keyword.control.step.sieve
//                                  ^^ keyword.other.sieve
//                                     ^^^^^^^^ variable.other.sieve
  wait   pod/default/${name}-* replicas ready within 60s
//                             ^^^^^^^^ variable.other.sieve
  patch  deployment/default/${name} merge { spec: { replicas: 1 } }
//^^^^^ keyword.control.step.sieve
//                                  ^^^^^ keyword.other.sieve
//                                          ^^^^ variable.other.property.sieve
  patch  deployment/default/${name} json `[{"op": "replace"}]`
//                                  ^^^^ keyword.other.sieve
//                                       ^^^^^^^^^^^^^^^^^^^^^ string.quoted.other.raw.sieve - source.cel
  wait   deployment/default/${name} where spec.containers[0].image == "nginx"
//                                  ^^^^^ keyword.other.sieve
//                                        ^^^^ variable.other.property.sieve
//                                                        ^ constant.numeric.sieve
//                                                           ^^^^^ variable.other.property.sieve
//                                                                 ^^ keyword.operator.comparison.sieve
  wait   deployment/default/${name} where metadata.deletionTimestamp exists
//                                                 ^^^^^^^^^^^^^^^^^ variable.other.property.sieve
//                                                                   ^^^^^^ keyword.other.sieve
  wait   deployment/default/${name} where "object.status.readyReplicas == object.spec.replicas"
//                                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.quoted.double.sieve - variable.other.property.sieve
  wait   until `objects("pod", "default").size() <= ${replicas}` within 2m
//       ^^^^^ keyword.other.sieve
//              ^^^^^^^ source.cel entity.name.function.cel
//                                               ^^ source.cel keyword.operator.cel
//                                                    ^^^^^^^^ source.cel variable.other.sieve
//                                                                      ^^ constant.numeric.duration.sieve
  delete deployment/default/${name}
//^^^^^^ keyword.control.step.sieve
  settle quiet
//^^^^^^ keyword.control.step.sieve
//       ^^^^^ variable.other.sieve
  sleep  2s
//^^^^^ keyword.control.step.sieve
}

plan combined {
// <---- storage.type.plan.sieve
//   ^^^^^^^^ entity.name.type.sieve
  (on create pod/default/ds-* #2 & after write create pvc/default/*) | after 2m: crash
// ^^ keyword.other.sieve
//    ^^^^^^ keyword.other.sieve
//                            ^ keyword.operator.occurrence.sieve
//                             ^ constant.numeric.sieve
//                               ^ keyword.operator.logical.sieve
//                                 ^^^^^ keyword.other.sieve
//                                       ^^^^^ keyword.other.sieve
//                                                                   ^ keyword.operator.logical.sieve
//                                                                             ^ punctuation.separator.colon.sieve
//                                                                               ^^^^^ keyword.control.action.sieve
  on update statefulset/default/ds where "object.spec.replicas > 3" ; after failed write update statefulset/default/ds: restart
//   ^^^^^^ keyword.other.sieve
//                                                                  ^ keyword.operator.logical.sieve
//                                                                          ^^^^^^ keyword.other.sieve
//                                                                                                                      ^^^^^^^ keyword.control.action.sieve
  on update datastore/default/ds where metadata.deletionTimestamp exists: stale on datastore/default/ds at on update datastore/default/ds
//                                     ^^^^^^^^ variable.other.property.sieve
//                                                                        ^^^^^ keyword.control.action.sieve
//      ^^ keyword.other.sieve
  on create pvc/default/data-0 in cluster subresource status changing { "metadata": {} } to { "spec": { "replicas": 3 } }: hold pod/default/ds-0 for 30s
//                             ^^ keyword.other.sieve
//                                ^^^^^^^ keyword.other.sieve
//                                        ^^^^^^^^^^^ keyword.other.sieve
//                                                           ^^^^^^^^ keyword.other.sieve
//                                                                      ^^^^^^^^^^ meta.object.sieve string.quoted.double.sieve
//                                                                                       ^^ keyword.other.sieve
//                                                                                                                         ^^^^ keyword.control.action.sieve
//                                                                                                                                               ^^^ keyword.other.sieve
  quiet for 1s after reading datastore/default/ds | after 5s: stale off datastore/default/ds
//^^^^^ keyword.other.sieve
//                   ^^^^^^^ keyword.other.sieve
//                                                                  ^^^ keyword.other.sieve
  on delete pod/default/ds-0 without { spec: {} }: release pod/default/ds-0
//                           ^^^^^^^ keyword.other.sieve
//                                                 ^^^^^^^ keyword.control.action.sieve
  after write deletecollection pod/default/*: pause for 5s
//            ^^^^^^^^^^^^^^^^ keyword.other.sieve
//                                            ^^^^^ keyword.control.action.sieve
  wait 5s
//^^^^ keyword.control.action.sieve
  resume
//^^^^^^ keyword.control.action.sieve
  on update pod/default/ds-0 where `object.status.phase == 'Running'`: crash
//                           ^^^^^ keyword.other.sieve
//                                  ^^^^^^ source.cel variable.other.cel
//                                                         ^^^^^^^^^ source.cel string.quoted.single.cel
}
