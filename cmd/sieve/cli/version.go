package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/buildinfo"
	"github.com/sievetool/sieve/interp/cluster/embedded/controlplane"
)

func newVersionCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of sieve, its Go and its Kubernetes",
		Long: "Version prints the module version, the VCS revision sieve was built from (and\n" +
			"whether the tree had changes), the Go version that built it, the version of\n" +
			"the Kubernetes client libraries compiled in, and the path and Kubernetes\n" +
			"version of the control-plane binary when one is found (sieve setup builds it);\n" +
			"--output json prints them as JSON. sieve --version prints the same text.",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return runVersion(g) },
	}
}

// versionInfo is what sieve version prints.
type versionInfo struct {
	buildinfo.Info
	ControlPlane controlPlaneInfo `json:"controlPlane"`
}

// controlPlaneInfo describes the control-plane binary Find finds: its path
// and the Kubernetes it links, or why there is none.
type controlPlaneInfo struct {
	Path       string `json:"path,omitempty"`
	Kubernetes string `json:"kubernetes,omitempty"`
	Missing    string `json:"missing,omitempty"`
}

// readVersion reads this binary's build information and the control
// plane's, without building the control plane.
func readVersion() versionInfo {
	v := versionInfo{Info: buildinfo.Read()}
	path, err := controlplane.Find(controlplane.Options{})
	if err != nil {
		v.ControlPlane.Missing = err.Error()
		return v
	}
	v.ControlPlane.Path = path
	if cp, err := buildinfo.ReadFile(path); err == nil {
		v.ControlPlane.Kubernetes = cp.Kubernetes
	}
	return v
}

func runVersion(g *globals) error {
	bi := readVersion()
	if g.output == "json" {
		b, err := json.MarshalIndent(bi, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(g.stdout, "%s\n", b)
		return err
	}
	_, err := fmt.Fprint(g.stdout, versionText(bi))
	return err
}

// versionText is the text of sieve version and sieve --version.
func versionText(bi versionInfo) string {
	unknown := func(s string) string {
		if s == "" {
			return "unknown"
		}
		return s
	}
	rev := unknown(bi.Revision)
	if bi.Time != "" {
		rev += " (" + bi.Time + ")"
	}
	if bi.Modified {
		rev += ", modified"
	}
	var b strings.Builder
	cp := bi.ControlPlane.Missing
	if bi.ControlPlane.Path != "" {
		cp = fmt.Sprintf("%s (kubernetes %s)", bi.ControlPlane.Path, unknown(bi.ControlPlane.Kubernetes))
	}
	fmt.Fprintf(&b, "sieve %s\n", bi.Version)
	fmt.Fprintf(&b, "  revision:      %s\n", rev)
	fmt.Fprintf(&b, "  go:            %s\n", bi.Go)
	fmt.Fprintf(&b, "  kubernetes:    %s (client libraries)\n", unknown(bi.Kubernetes))
	fmt.Fprintf(&b, "  control plane: %s\n", cp)
	return b.String()
}
