package seed_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/cluster/embedded/seed"
)

func TestWriteRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bootstrap.seed")
	want := []seed.KV{
		{Key: "/registry/clusterroles/admin", Value: []byte("k8s\x00\x0a binary")},
		{Key: "/registry/priorityclasses/system-node-critical", Value: []byte{0, 1, 2}},
	}
	if err := seed.Write(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := seed.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read %q, want %q", got, want)
	}
	if left, _ := filepath.Glob(path + ".tmp*"); len(left) != 0 {
		t.Errorf("Write left %v", left)
	}
}

func TestReadRejects(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct{ data, want string }{
		"not json":    {`{`, "unexpected end of JSON input"},
		"foreign key": {`[{"key":"/registry/secrets/default/token","value":""}]`, `key "/registry/secrets/default/token" is not one a seed holds`},
		"missing":     {"", "no such file"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if tc.data != "" {
			if err := os.WriteFile(path, []byte(tc.data), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		_, err := seed.Read(path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Read: %v, want an error with %q", name, err, tc.want)
		}
	}
}
