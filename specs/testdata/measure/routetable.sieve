// routetable under the API-error and application-fault patterns (issue 41): the
// example's own tests with faults.apierror and faults.appfault in place of
// their policies; specs/routetable/README.md has the figures.
//
//   sieve run specs/testdata/measure/routetable.sieve --test fixed --pattern apierror
//   sieve run specs/testdata/measure/routetable.sieve --test fixed --pattern appfault

import "std/faults"
import ex "../../routetable/routetable.sieve"

test buggy : ex.buggy {
  policies [faults.apierror, faults.appfault]
}

test fixed : ex.fixed {
  policies [faults.apierror, faults.appfault]
}
