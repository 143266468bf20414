package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/campaign/dispatch"
	"github.com/sievetool/sieve/interp/cluster/embedded/controlplane"
	"github.com/sievetool/sieve/interp/formats/results"
)

// workerFlags are the flags of `sieve internal worker`.
type workerFlags struct {
	bundle    string
	test      string
	shards    int
	artifacts string
	campaign  string
}

// newInternalWorkerCmd is what each pod of a campaign's Job runs (see
// interp/campaign/dispatch): it pulls the campaign's reference runs, runs its
// shard with sieve run, and pushes the results.
func newInternalWorkerCmd(g *globals) *cobra.Command {
	f := &workerFlags{}
	cmd := &cobra.Command{
		Use:   "worker --bundle FILE --test NAME --shards N --artifacts REPO --campaign NAME [-- RUN_FLAGS...]",
		Short: "Run shard $JOB_COMPLETION_INDEX+1 of a campaign in a pod of its Job",
		RunE:  func(cmd *cobra.Command, args []string) error { return runWorker(cmd.Context(), g, f, args) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.bundle, "bundle", dispatch.ManifestFile, "the image's bundle.json")
	fl.StringVar(&f.test, "test", "", "the test")
	fl.IntVar(&f.shards, "shards", 0, "the number of shards")
	fl.StringVar(&f.artifacts, "artifacts", "", "the repository of the campaign's artefacts")
	fl.StringVar(&f.campaign, "campaign", "", "the campaign")
	return cmd
}

func runWorker(ctx context.Context, g *globals, f *workerFlags, runArgs []string) error {
	shard, err := completionShard(f.shards)
	if err != nil {
		return usageErr(err)
	}
	m, err := dispatch.ReadManifest(f.bundle)
	if err != nil {
		return usageErr(err)
	}
	if os.Getenv(controlplane.Env) == "" {
		os.Setenv(controlplane.Env, m.ControlPlane)
	}
	refs, out := filepath.Join(os.TempDir(), "sieve-refs"), filepath.Join(os.TempDir(), "sieve-results")
	g.note("worker: shard %d/%d of campaign %s", shard, f.shards, f.campaign)
	g.interruptible()
	if _, err := dispatch.PullRefs(ctx, f.artifacts, f.campaign, refs); err != nil {
		return infraErr(err)
	}
	code := execute(ctx, g.signals, f.runArgs(m, shard, refs, out, runArgs), g.stdout, g.stderr)
	if _, err := os.Stat(results.Layout{Root: out}.Summary()); err == nil {
		ref, err := dispatch.PushShard(context.WithoutCancel(ctx), f.artifacts, f.campaign, shard, out)
		if err != nil {
			return infraErr(err)
		}
		g.note("worker: results pushed to %s", ref)
	}
	// Findings are results, not a failure of the shard: the pod succeeds
	// and sieve collect reports them.
	if code == exitOK || code == exitFindings {
		return nil
	}
	return printedErr(code)
}

// completionShard is the shard of this pod: its Job's
// JOB_COMPLETION_INDEX (from 0) plus one.
func completionShard(shards int) (int, error) {
	v := os.Getenv("JOB_COMPLETION_INDEX")
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 || i >= shards {
		return 0, fmt.Errorf("worker: JOB_COMPLETION_INDEX %q (want 0 to %d: the pod of an Indexed Job sets it)", v, shards-1)
	}
	return i + 1, nil
}

// runArgs are sieve run's arguments for the shard: one plan at a time
// (the pod requests one worker's cost; --parallel in more, which comes
// later, overrides it).
func (f *workerFlags) runArgs(m *dispatch.Manifest, shard int, refs, out string, more []string) []string {
	args := []string{"run", m.Spec, "--test", f.test, "--shard", fmt.Sprintf("%d/%d", shard, f.shards),
		"--references", refs, "-o", out, "--parallel", "1"}
	for _, dir := range m.Includes {
		args = append(args, "-I", dir)
	}
	if bin, ok := m.Controllers[f.test]; ok {
		args = append(args, "--controller-binary", bin)
	}
	return append(args, more...)
}
