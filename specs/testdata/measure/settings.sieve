// settings under the API-error and application-fault patterns (issue 41):
// the hand-written workload's test with faults.apierror and
// faults.appfault in place of its policies; specs/settings/README.md has
// the figures.
//
//   sieve run specs/testdata/measure/settings.sieve --test scale --pattern apierror

import "std/faults"
import ex "../../settings/settings.sieve"

test scale : ex.scale {
  policies [faults.apierror, faults.appfault]
}
