package kindschema_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/sievetool/sieve/interp/kindschema"
)

// tableFile is the table that lang/check embeds.
const tableFile = "../../lang/check/kinds.json"

// TestTableInSync holds lang/check/kinds.json equal to what Generate
// writes from the k8s.io/api types this module builds with, so a
// Kubernetes upgrade that adds or renames a field fails here until the
// file is refreshed (SIEVE_UPDATE=1).
func TestTableInSync(t *testing.T) {
	want, err := kindschema.Generate()
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("SIEVE_UPDATE") != "" {
		if err := os.WriteFile(tableFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(tableFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what Generate writes (run with SIEVE_UPDATE=1 and read the diff)", tableFile)
	}
}

// TestTableShape checks a few facts of the table that the checker relies
// on: fields of nested structs, inlined type metadata, lists and open maps.
func TestTableShape(t *testing.T) {
	b, err := kindschema.Generate()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`"deployment": "apps/v1.Deployment"`,
		`"apiVersion": ""`,
		`"containers": "[]core/v1.Container"`,
		`"labels": "{}"`,
		`"creationTimestamp": "{}"`,
		`"updatedReplicas": ""`,
	} {
		if !bytes.Contains(b, []byte(s)) {
			t.Errorf("table lacks %s", s)
		}
	}
}
