package cli

import (
	"context"

	"github.com/spf13/cobra"
)

// collectFlags are the flags of `sieve collect`.
type collectFlags struct {
	artifacts string
	out       string
	force     bool
	report    reportFlags
}

func newCollectCmd(g *globals) *cobra.Command {
	f := &collectFlags{}
	cmd := &cobra.Command{
		Use:   "collect CAMPAIGN --artifacts REPO",
		Short: "Pull a campaign's results from its registry and report them as one run",
		Long: "Collect pulls what the pods of a campaign (sieve run --on kubernetes) pushed: the\n" +
			"reference runs and each shard's results directory, into DIR/references and\n" +
			"DIR/shard-I, and reports the shards as one run, as sieve report does. A shard\n" +
			"that left no results is named. Exit status as sieve report's; 3 when a shard\n" +
			"is missing and nothing was found.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runCollect(cmd.Context(), g, f, args[0]) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.artifacts, "artifacts", "", "the `REPO` (registry/repository) the campaign's pods pushed to (required)")
	fl.StringVarP(&f.out, "out", "o", "sieve-results", "the `DIR` to pull into")
	fl.BoolVar(&f.force, "force", false, forceUsage)
	fl.StringVar(&f.report.junit, "junit", "", "also write JUnit XML to `FILE`")
	fl.StringVar(&f.report.html, "html", "", "also write an HTML report into `DIR`")
	_ = cmd.MarkFlagRequired("artifacts")
	return cmd
}

func runCollect(ctx context.Context, g *globals, f *collectFlags, campaign string) error {
	if err := absPaths(&f.out); err != nil {
		return usageErr(err)
	}
	g.interruptible()
	unlock, err := takeResults("-o", f.out, f.force, nil)
	if err != nil {
		return err
	}
	defer unlock()
	return collectAndReport(ctx, g, &f.report, f.artifacts, campaign, f.out)
}
