package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/spf13/cobra"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/campaign/dispatch"
	"github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/lang/ir"
)

// clusterFlags are the flags of `sieve run --on kubernetes`.
type clusterFlags struct {
	on         string
	image      string
	workers    int
	shards     int
	namespace  string
	artifacts  string
	campaign   string
	cpu        string
	memory     string
	pushSecret string
	pullSecret string
	retries    int
	deadline   time.Duration
	nodes      map[string]string
}

func (f *clusterFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.on, "on", "", "run the plans on `kubernetes`: one Indexed Job on the cluster of --kubeconfig, a pod per shard (docs/scale-out.md)")
	fl.StringVar(&f.image, "image", "", "with --on: the worker image `REF` (sieve image --push)")
	fl.IntVar(&f.workers, "workers", 4, "with --on: run `N` pods at once (the Job's parallelism)")
	fl.IntVar(&f.shards, "shards", 0, "with --on: split the plans in `N` parts, a pod each (default: --workers)")
	fl.StringVar(&f.namespace, "namespace", "", "with --on: the `NAMESPACE` of the Job (default: the kubeconfig context's, or default)")
	fl.StringVar(&f.artifacts, "artifacts", "", "with --on: the `REPO` the reference runs and results go through (default: the image's repository)")
	fl.StringVar(&f.campaign, "campaign", "", "with --on: the campaign's `NAME` (default: the test's name and the time)")
	fl.StringVar(&f.cpu, "worker-cpu", "", "with --on: each pod's CPU request (default "+dispatch.Cost.CPU+")")
	fl.StringVar(&f.memory, "worker-memory", "", "with --on: each pod's memory request; the limit is twice it (default "+dispatch.Cost.Memory+")")
	fl.StringVar(&f.pushSecret, "push-secret", "", "with --on: a dockerconfigjson Secret `NAME` the pods push results with")
	fl.StringVar(&f.pullSecret, "pull-secret", "", "with --on: the image pull Secret `NAME`")
	fl.IntVar(&f.retries, "retries", 1, "with --on: run a failed shard up to `N` more times (backoffLimitPerIndex)")
	fl.StringToStringVar(&f.nodes, "node-selector", nil, "with --on: run the pods on nodes labelled `KEY=VALUE` (repeatable)")
	fl.DurationVar(&f.deadline, "deadline", 0, "with --on: stop the Job after `D` (default: from the plans per shard)")
}

// check checks the flags of a run on a cluster; none given is fine.
func (f *clusterFlags) check(rf *runFlags) error {
	if f.on == "" {
		if f.image != "" {
			return fmt.Errorf("--image goes with --on kubernetes")
		}
		return nil
	}
	switch {
	case f.on != "kubernetes":
		return fmt.Errorf("--on: unknown executor %q (want kubernetes)", f.on)
	case f.image == "":
		return fmt.Errorf("--on kubernetes needs --image REF (build and push it with sieve image)")
	case rf.backend.backend != "embedded":
		return fmt.Errorf("--on kubernetes: each pod runs its plans on its own embedded control plane (leave --backend out)")
	case rf.shard != "":
		return fmt.Errorf("--on kubernetes splits the plans itself (leave --shard out; --shards N sets the parts)")
	case f.workers < 1 || f.shards < 0 || f.retries < 0:
		return fmt.Errorf("--workers %d, --shards %d, --retries %d: want 1 or more workers, 0 or more shards and retries", f.workers, f.shards, f.retries)
	}
	if f.campaign != "" && !validCampaign(f.campaign) {
		return fmt.Errorf("--campaign %q: want lowercase letters, digits and '-', at most 40", f.campaign)
	}
	return nil
}

func validCampaign(s string) bool {
	if s == "" || len(s) > 40 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == ""
}

// runOnCluster runs one test's plans as a campaign: the reference runs
// are recorded here, the plans generated here to count the shards, then
// one Indexed Job runs the shards and sieve collects their results.
func runOnCluster(ctx context.Context, g *globals, f *runFlags, file string, tests []*ir.Test) error {
	if len(tests) != 1 {
		return usageErr(fmt.Errorf("--on kubernetes runs one test per campaign (give --test NAME)"))
	}
	t := tests[0]
	unlock, err := takeResults("-o", f.out, f.force, tests)
	if err != nil {
		return err
	}
	defer unlock()
	cs, ns, err := f.cluster.client(f.backend.kubeconfig, f.backend.context)
	if err != nil {
		return usageErr(err)
	}
	camp, err := f.prepare(ctx, g, file, t, ns)
	if err != nil {
		return err
	}
	return dispatchCampaign(ctx, g, f, cs, camp)
}

// client connects to the cluster of the kubeconfig (default: the usual
// rules, $KUBECONFIG then ~/.kube/config) and picks the namespace.
func (f *clusterFlags) client(kubeconfig, kctx string) (kubernetes.Interface, string, error) {
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(clientcmd.NewDefaultClientConfigLoadingRules(), &clientcmd.ConfigOverrides{CurrentContext: kctx})
	if kubeconfig != "" {
		var err error
		if cc, err = cluster.LoadKubeconfig(kubeconfig, kctx); err != nil {
			return nil, "", fmt.Errorf("--on kubernetes: %w", err)
		}
	}
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, "", fmt.Errorf("--on kubernetes: %w (give --kubeconfig FILE)", err)
	}
	ns := f.namespace
	if ns == "" {
		if ns, _, err = cc.Namespace(); err != nil || ns == "" {
			ns = "default"
		}
	}
	cs, err := kubernetes.NewForConfig(cfg)
	return cs, ns, err
}

// prepare records the references (or takes them from the cache),
// generates the plans, splits them, and pushes the references for the
// pods.
func (f *runFlags) prepare(ctx context.Context, g *globals, file string, t *ir.Test, ns string) (*dispatch.Campaign, error) {
	out := results.Layout{Root: f.out}
	refsDir := out.CampaignRefs()
	if err := out.Clear(); err != nil {
		return nil, infraErr(err)
	}
	work, err := f.planHere(ctx, g, file, t, refsDir)
	if err != nil {
		return nil, err
	}
	c := f.cluster.newCampaign(t, file, ns, work.units())
	// Each pod runs its shard's part as sieve run --shard does: its
	// plans, capped at --max-plans, and the explored workload's results
	// that fall to it.
	c.PlansPerShard = pipeline.Split(t.Name, work.set.Plans, work.explore, c.Shards, f.maxPlans)
	c.RunArgs = f.shardArgs()
	rec := dispatch.Record{Name: c.Name, Test: t.Name, Spec: relPath(file), Shards: c.Shards, PlansPerShard: c.PlansPerShard, Namespace: ns, Job: c.JobName()}
	ref, err := dispatch.PushRefs(ctx, c.Artifacts, refsDir, rec)
	if err != nil {
		return nil, infraErr(err)
	}
	g.note("campaign %s: %s in %d shards %v; reference runs pushed to %s", c.Name, work, c.Shards, c.PlansPerShard, ref)
	return c, nil
}

// campaignWork is what a campaign's shards split: the plan set, and the
// numbers of the explored workload's results (pipeline.ExploreUnits; none
// when the test explores nothing or --pattern leaves them out).
type campaignWork struct {
	set     *plan.Set
	explore []int
}

// units counts the plans and the explored results.
func (w campaignWork) units() int { return len(w.set.Plans) + len(w.explore) }

// String says what the campaign runs: "12 plans", "12 plans and 3
// explored results".
func (w campaignWork) String() string {
	if len(w.explore) == 0 {
		return fmt.Sprintf("%d plans", len(w.set.Plans))
	}
	return fmt.Sprintf("%d plans and %d explored results", len(w.set.Plans), len(w.explore))
}

// planHere records the reference runs on a local embedded control plane
// (or reuses the cached ones), generates the plan set and numbers the
// explored workload's results.
func (f *runFlags) planHere(ctx context.Context, g *globals, file string, t *ir.Test, refsDir string) (campaignWork, error) {
	workers, stopBackends, err := f.backend.workers(ctx, t, 1)
	defer func() { _ = stopBackends() }()
	if err != nil {
		return campaignWork{}, infraErr(err)
	}
	env := pipeline.Env{Spec: file, BaseDir: filepath.Dir(file), Workers: workers, Progress: g.progress()}
	refs, err := pipeline.References(ctx, env, t, results.Layout{Root: refsDir}, pipeline.RefOptions{Cache: cacheFor(f.noCache)})
	if err != nil {
		return campaignWork{}, g.testErr(t, err)
	}
	sel := pipeline.Selection{Pattern: ir.Pattern(f.pattern), MaxCandidates: f.maxCandidates}
	w := campaignWork{}
	if w.set, err = pipeline.Plans(env, refs.Test, refs.Traces, sel); err != nil {
		return campaignWork{}, g.testErr(t, err)
	}
	if sel.Explores() {
		if w.explore, err = pipeline.ExploreUnits(refs); err != nil {
			return campaignWork{}, g.testErr(t, err)
		}
	}
	return w, nil
}

// shardArgs are the flags of sieve run each pod passes on.
func (f *runFlags) shardArgs() []string {
	args := []string{"--confirm", strconv.Itoa(f.confirm)}
	if f.pattern != "" {
		args = append(args, "--pattern", f.pattern)
	}
	if f.maxPlans > 0 {
		args = append(args, "--max-plans", strconv.Itoa(f.maxPlans))
	}
	if f.maxCandidates > 0 {
		args = append(args, "--max-candidates", strconv.Itoa(f.maxCandidates))
	}
	return args
}

// newCampaign is the campaign the flags describe, for n units to split
// (plans and explored results).
func (f *clusterFlags) newCampaign(t *ir.Test, file, ns string, n int) *dispatch.Campaign {
	shards := f.shards
	if shards == 0 {
		shards = f.workers
	}
	shards = max(min(shards, n), 1)
	name := f.campaign
	if name == "" {
		name = campaignName(t.Name, time.Now())
	}
	return &dispatch.Campaign{Name: name, Namespace: ns, Image: f.image, Test: t.Name, Spec: filepath.Base(file),
		Shards: shards, Workers: f.workers, Artifacts: f.artifactRepo(), CPU: f.cpu, Memory: f.memory,
		PushSecret: f.pushSecret, PullSecret: f.pullSecret, Retries: f.retries, Deadline: f.deadline, NodeSelector: f.nodes}
}

// campaignName is the test's name as a DNS label (at most 24
// characters) and the time in seconds, base 36.
func campaignName(test string, now time.Time) string {
	var b strings.Builder
	for _, r := range strings.ToLower(test) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > 24 {
		s = strings.TrimRight(s[:24], "-")
	}
	if s == "" {
		s = "test"
	}
	return s + "-" + strconv.FormatInt(now.Unix(), 36)
}

// artifactRepo is --artifacts, or the image's repository.
func (f *clusterFlags) artifactRepo() string {
	if f.artifacts != "" {
		return f.artifacts
	}
	ref, err := name.ParseReference(f.image)
	if err != nil {
		return f.image
	}
	return ref.Context().String()
}

// dispatchCampaign creates the Job, follows it, and collects and reports
// the results; Ctrl-C (any stop signal) deletes the Job and exits 130
// (128 + the signal's number).
func dispatchCampaign(ctx context.Context, g *globals, f *runFlags, cs kubernetes.Interface, c *dispatch.Campaign) error {
	job, err := c.Job()
	if err != nil {
		return usageErr(err)
	}
	g.note("campaign %s: job %s/%s, %d pods at once", c.Name, c.Namespace, c.JobName(), min(c.Workers, c.Shards))
	s, err := dispatch.Follow(ctx, cs, job, 0, func(s dispatch.Status) { g.note("campaign %s: %s, %s", c.Name, s, plansDone(c, s)) })
	if errors.Is(err, context.Canceled) {
		g.note("interrupted: job %s/%s deleted with its pods", c.Namespace, c.JobName())
		return interruptedErr(ctx)
	}
	if err != nil {
		return infraErr(err)
	}
	for _, shard := range s.Failed {
		tellFailed(g, cs, c, shard)
	}
	return collectAndReport(context.WithoutCancel(ctx), g, &f.report, c.Artifacts, c.Name, f.out)
}

// plansDone counts the plans of the shards done, their explored results
// among them (Campaign.PlansPerShard).
func plansDone(c *dispatch.Campaign, s dispatch.Status) string {
	done, all := 0, 0
	for _, n := range c.PlansPerShard {
		all += n
	}
	for _, i := range s.Completed {
		if i-1 < len(c.PlansPerShard) {
			done += c.PlansPerShard[i-1]
		}
	}
	return fmt.Sprintf("plans %d/%d", done, all)
}

// tellFailed prints a failed shard's pod log.
func tellFailed(g *globals, cs kubernetes.Interface, c *dispatch.Campaign, shard int) {
	pod, log, err := dispatch.Logs(context.Background(), cs, c.Namespace, c.JobName(), shard, 40)
	if err != nil {
		g.note("shard %d/%d failed: %v", shard, c.Shards, err)
		return
	}
	g.note("shard %d/%d failed (pod %s/%s); the end of its log:\n%s", shard, c.Shards, c.Namespace, pod, indent(log))
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return "  " + strings.Join(lines, "\n  ")
}

// collectAndReport pulls every shard's results into out/shard-I and
// reports them as one run; a shard without results makes the run
// unfinished (exit 3 when nothing was found).
func collectAndReport(ctx context.Context, g *globals, rf *reportFlags, artifacts, campaign, out string) error {
	got, err := dispatch.Collect(ctx, artifacts, campaign, out)
	if err != nil {
		return infraErr(err)
	}
	for i := 1; i <= got.Record.Shards; i++ {
		if err := got.Missing[i]; err != nil {
			g.note("shard %d/%d: no results (%v)", i, got.Record.Shards, err)
		}
	}
	if len(got.Dirs) == 0 {
		return infraErr(fmt.Errorf("campaign %s: no shard left results", campaign))
	}
	err = runReport(g, rf, got.Dirs)
	if len(got.Missing) > 0 && err == nil {
		return printedErr(exitInfra)
	}
	return err
}
