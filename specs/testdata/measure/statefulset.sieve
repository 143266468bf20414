// statefulset under the API-error and application-fault patterns (issue
// 41): the built-in StatefulSet controller's tests with faults.apierror and
// faults.appfault in place of faults.all; specs/statefulset/README.md has
// the figures.
//
//   sieve run specs/testdata/measure/statefulset.sieve --test recreate --pattern apierror

import "std/faults"
import ex "../../statefulset/statefulset.sieve"

test recreate : ex.recreate {
  policies [faults.apierror, faults.appfault]
}

test scale : ex.scale {
  policies [faults.apierror, faults.appfault]
}
