package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/buildinfo"
)

func newVersionCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of sieve, its Go and its Kubernetes",
		Long: "Version prints the module version, the VCS revision sieve was built from (and\n" +
			"whether the tree had changes), the Go version that built it and the version of\n" +
			"the Kubernetes components compiled in; --output json prints them as JSON.\n" +
			"sieve --version prints the same text.",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return runVersion(g) },
	}
}

func runVersion(g *globals) error {
	bi := buildinfo.Read()
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
func versionText(bi buildinfo.Info) string {
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
	fmt.Fprintf(&b, "sieve %s\n", bi.Version)
	fmt.Fprintf(&b, "  revision:   %s\n", rev)
	fmt.Fprintf(&b, "  go:         %s\n", bi.Go)
	fmt.Fprintf(&b, "  kubernetes: %s\n", unknown(bi.Kubernetes))
	return b.String()
}
