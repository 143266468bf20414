package kindschema_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/sievetool/sieve/interp/cluster/kindschema"
)

// tableFile is the table that lang/kinds embeds.
const tableFile = "../../../lang/kinds/kinds.json"

// TestTableInSync holds lang/kinds/kinds.json equal to what Generate
// writes from the Kubernetes libraries this module builds with, so a
// Kubernetes upgrade that adds a kind or a field fails here until the
// file is generated again.
func TestTableInSync(t *testing.T) {
	want, err := kindschema.Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(tableFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what Generate writes (run go generate ./lang/kinds and read the diff)", tableFile)
	}
}

// docsFile is the descriptions of fields that lang/kinds embeds.
const docsFile = "../../../lang/kinds/docs.json"

// TestDocsInSync holds lang/kinds/docs.json equal to what GenerateDocs
// writes, as TestTableInSync does the table.
func TestDocsInSync(t *testing.T) {
	want, err := kindschema.GenerateDocs()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(docsFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what GenerateDocs writes (run go generate ./lang/kinds and read the diff)", docsFile)
	}
	for _, s := range []string{`"apps/v1.StatefulSetSpec": {`, `"replicas": "replicas is the desired number of replicas`, `"meta/v1.ObjectMeta": {`} {
		if !bytes.Contains(want, []byte(s)) {
			t.Errorf("docs lack %s", s)
		}
	}
}

// TestTableShape checks a few facts of the table that the checker relies
// on: fields of nested structs, inlined type metadata, lists and open maps,
// kinds served by each of the three schemes, and aliases.
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
		`"apps/v1 StatefulSet"`,
		`"apiextensions.k8s.io/v1 CustomResourceDefinition"`,
		`"apiregistration.k8s.io/v1 APIService"`,
		`"sts": "statefulset"`,
	} {
		if !bytes.Contains(b, []byte(s)) {
			t.Errorf("table lacks %s", s)
		}
	}
}
