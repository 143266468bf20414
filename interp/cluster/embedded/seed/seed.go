// Package seed reads and writes the etcd seed of an embedded control
// plane: the objects the API server's bootstrap writes (RBAC's bootstrap
// policy, the system priority classes and the default ServiceCIDR), as
// that API server wrote them in an earlier cluster. etcd starts with them,
// so that the bootstrap finds them in place instead of creating a few
// hundred objects, which takes most of a second on the path to a ready
// cluster, and the service IP repair, which /healthz waits for, finds its
// ServiceCIDR at its first look instead of 100 ms later.
package seed

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// KV is one etcd key and its value.
type KV struct {
	Key   string `json:"key"`
	Value []byte `json:"value"`
}

// prefixes are the etcd keys a seed holds: what the bootstrap of the API
// server writes, and nothing a test writes before the cluster is ready.
func prefixes() []string {
	return []string{
		"/registry/clusterroles/",
		"/registry/clusterrolebindings/",
		"/registry/roles/",
		"/registry/rolebindings/",
		"/registry/priorityclasses/",
		"/registry/servicecidrs/",
	}
}

// Seeded reports whether key belongs in a seed.
func Seeded(key string) bool {
	for _, p := range prefixes() {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// Write writes kvs to path atomically: a reader sees the whole seed or
// none.
func Write(path string, kvs []KV) error {
	data, err := json.Marshal(kvs)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Read reads the seed at path. A seed with a key that is not Seeded is
// an error.
func Read(path string) ([]KV, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var kvs []KV
	if err := json.Unmarshal(data, &kvs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, kv := range kvs {
		if !Seeded(kv.Key) {
			return nil, fmt.Errorf("%s: key %q is not one a seed holds", path, kv.Key)
		}
	}
	return kvs, nil
}
