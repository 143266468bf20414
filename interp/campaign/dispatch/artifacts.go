package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/sievetool/sieve/interp/campaign/image"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/internal/nofollow"
)

// CampaignFile is the file of the reference-runs artefact that describes
// the campaign, for sieve collect.
const CampaignFile = "campaign.json"

// Record is what campaign.json says.
type Record struct {
	Name          string `json:"name"`
	Test          string `json:"test"`
	Spec          string `json:"spec"`
	Shards        int    `json:"shards"`
	PlansPerShard []int  `json:"plansPerShard"`
	Namespace     string `json:"namespace,omitempty"`
	Job           string `json:"job,omitempty"`
}

// RefsTag is the reference of the artefact holding the campaign's
// reference runs (a results directory with only them) and campaign.json.
func RefsTag(artifacts, campaign string) string { return artifacts + ":" + campaign + "-refs" }

// ShardTag is the reference of shard's results artefact (shard from 1).
func ShardTag(artifacts, campaign string, shard int) string {
	return artifacts + ":" + campaign + "-shard-" + strconv.Itoa(shard)
}

// PushRefs writes campaign.json into refsDir (a results directory holding
// the reference runs) and pushes it as the campaign's reference artefact.
func PushRefs(ctx context.Context, artifacts, refsDir string, r Record) (string, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return "", err
	}
	if err := nofollow.WriteFile(filepath.Join(refsDir, CampaignFile), append(b, '\n')); err != nil {
		return "", err
	}
	return image.PushDir(ctx, refsDir, RefsTag(artifacts, r.Name), map[string]string{AnnotationTest: r.Test})
}

// PullRefs pulls the campaign's reference artefact into dir and reads its
// campaign.json.
func PullRefs(ctx context.Context, artifacts, campaign, dir string) (*Record, error) {
	if err := image.PullDir(ctx, RefsTag(artifacts, campaign), dir); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, CampaignFile))
	if err != nil {
		return nil, fmt.Errorf("campaign %s: %w", campaign, err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("campaign %s: %s: %w", campaign, CampaignFile, err)
	}
	return &r, nil
}

// PushShard pushes a shard's results directory.
func PushShard(ctx context.Context, artifacts, campaign string, shard int, dir string) (string, error) {
	return image.PushDir(ctx, dir, ShardTag(artifacts, campaign, shard), map[string]string{"sieve.dev/shard": strconv.Itoa(shard)})
}

// Collected is what Collect brought back: the shards' directories, and
// the shards whose results could not be pulled, with why.
type Collected struct {
	Record  *Record
	Dirs    []string
	Missing map[int]error
}

// Collect pulls the campaign's record into dir's references and every
// shard's results into dir's shard-I (results.Layout), removing what an
// earlier collect left in shard-I: dir must be sieve's (results' Take). A
// shard whose artefact is missing (its pod failed before pushing) is in
// Missing, not an error.
func Collect(ctx context.Context, artifacts, campaign, dir string) (*Collected, error) {
	l := results.Layout{Root: dir}
	if err := nofollow.NotLink(l.CampaignRefs()); err != nil {
		return nil, err
	}
	rec, err := PullRefs(ctx, artifacts, campaign, l.CampaignRefs())
	if err != nil {
		return nil, err
	}
	c := &Collected{Record: rec, Missing: map[int]error{}}
	for i := 1; i <= rec.Shards; i++ {
		d := l.ShardDir(i)
		if err := l.ClearShard(i); err != nil {
			return nil, err
		}
		if err := image.PullDir(ctx, ShardTag(artifacts, campaign, i), d); err != nil {
			c.Missing[i] = err
			continue
		}
		c.Dirs = append(c.Dirs, d)
	}
	return c, nil
}
