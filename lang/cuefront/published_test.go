package cuefront

import "path/filepath"

// publishedSchema is the directory of the sieve.dev/schema CUE module,
// the source of the schema sieve embeds.
var publishedSchema = filepath.Join("..", "..", "cue", "schema")
