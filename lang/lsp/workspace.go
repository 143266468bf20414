package lsp

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"
)

// maxWorkspaceFiles bounds the .sieve files a search across the workspace
// reads: a root folder with more (a home directory, a huge tree of test
// data) is searched in part.
const maxWorkspaceFiles = 500

// rootsOf are the directories of the workspace an editor opened: its
// folders, else its root.
func rootsOf(p *protocol.InitializeParams) []string {
	var out []string
	for _, f := range p.WorkspaceFolders {
		if path, ok := filePath(protocol.DocumentURI(f.URI)); ok {
			out = append(out, path)
		}
	}
	if path, ok := filePath(p.RootURI); ok && len(out) == 0 {
		out = append(out, path)
	}
	return out
}

// workspaceFiles are the .sieve files that may name a declaration of a
// file of dir: the open documents, the files of dir and those
// under the workspace's root folders (hidden directories and
// node_modules skipped), at most maxWorkspaceFiles of them, sorted.
func (s *server) workspaceFiles(dir string) []string {
	seen := map[string]bool{}
	add := func(p string) bool {
		if filepath.Ext(p) == ".sieve" && len(seen) < maxWorkspaceFiles {
			seen[absPath(p)] = true
		}
		return len(seen) < maxWorkspaceFiles
	}
	s.mu.Lock()
	for _, d := range s.docs {
		add(d.path)
	}
	roots := s.roots
	s.mu.Unlock()
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if !e.IsDir() {
				add(filepath.Join(dir, e.Name()))
			}
		}
	}
	for _, r := range roots {
		walkSieve(r, add)
	}
	return slices.Sorted(maps.Keys(seen))
}

// walkSieve calls add with each file under root, skipping hidden
// directories and node_modules, until add returns false.
func walkSieve(root string, add func(string) bool) {
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules"):
			return filepath.SkipDir
		case d.IsDir():
			return nil
		case !add(p):
			return filepath.SkipAll
		}
		return nil
	})
}
