package buildinfo

import (
	"debug/buildinfo"
	"fmt"
	"runtime/debug"
	"strings"
)

// Info describes a build. Fields the build does not record are empty
// (a test binary, or a build with -buildvcs=false, has no revision).
type Info struct {
	// Version is the main module's version: a tag or pseudo-version when
	// installed with go install, "(devel)" when built in a checkout.
	Version string `json:"version"`
	// Revision is the VCS commit the binary was built from, Time its
	// commit time, and Modified whether the tree had changes.
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Go is the Go version that built the binary ("go1.26.0").
	Go string `json:"go"`
	// Kubernetes is the version of the Kubernetes libraries linked in:
	// k8s.io/kubernetes's (the control-plane binary links it), or else the
	// one k8s.io/client-go's v0.X.Y stands for (v1.X.Y).
	Kubernetes string `json:"kubernetes,omitempty"`
}

// Read returns the running binary's build information; Version is
// "unknown" when the binary records none.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: "unknown"}
	}
	return parse(bi)
}

// ReadFile returns the build information of the Go binary at path, for
// instance the control plane's.
func ReadFile(path string) (Info, error) {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return Info{}, fmt.Errorf("reading the build information of %s: %w", path, err)
	}
	return parse(bi), nil
}

func parse(bi *debug.BuildInfo) Info {
	in := Info{Version: bi.Main.Version, Go: bi.GoVersion}
	if in.Version == "" {
		in.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	in.Kubernetes = kubernetes(bi.Deps)
	return in
}

// kubernetes finds the Kubernetes version among the dependencies,
// following replace directives.
func kubernetes(deps []*debug.Module) string {
	version := func(m *debug.Module) string {
		if m.Replace != nil && m.Replace.Version != "" {
			return m.Replace.Version
		}
		return m.Version
	}
	var client string
	for _, m := range deps {
		switch m.Path {
		case "k8s.io/kubernetes":
			return version(m)
		case "k8s.io/client-go":
			client = version(m)
		}
	}
	if rest, ok := strings.CutPrefix(client, "v0."); ok {
		return "v1." + rest
	}
	return client
}
