package cuefront

import (
	"os"
	"path/filepath"
	"testing"
)

// publishedSchema is the directory of the sieve.dev/schema CUE module that
// libraries depend on (docs/libraries.md).
var publishedSchema = filepath.Join("..", "..", "cue", "schema")

// TestPublishedSchema holds the published schema module's files equal to
// the schema sieve embeds (SIEVE_UPDATE=1 copies them).
func TestPublishedSchema(t *testing.T) {
	for name, text := range map[string]string{"schema.cue": SchemaText(), "ir.cue": IRSchemaText()} {
		file := filepath.Join(publishedSchema, name)
		if update {
			if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != text {
			t.Errorf("%s differs from lang/cuefront/schema/%s, which sieve embeds (SIEVE_UPDATE=1 copies it)", file, name)
		}
	}
}
