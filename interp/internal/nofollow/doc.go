// Package nofollow creates the files and folders that sieve writes in a
// results directory without following a symbolic link. A link where sieve
// writes (DIR/client.log pointing at a file of the user's, DIR/plans at
// another folder) is refused with a *LinkError that names it. The link's
// target is left as it was. Files are readable by their owner only
// (FileMode, DirMode), since traces and logs can hold what the cluster
// held, Secrets' data included.
//
// It does not know the results directory's layout (interp/formats/results
// does), nor decide whose a directory is (its marker).
package nofollow
