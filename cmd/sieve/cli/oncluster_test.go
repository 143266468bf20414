package cli

import (
	"testing"
	"time"
)

func TestCampaignName(t *testing.T) {
	at := time.Unix(1_800_000_000, 0)
	for test, want := range map[string]string{
		"buggy":                           "buggy-tro8w0",
		"Fixed_Resize PVC":                "fixed-resize-pvc-tro8w0",
		"a-very-long-test-name-that-goes": "a-very-long-test-name-th-tro8w0",
		"__":                              "test-tro8w0",
	} {
		got := campaignName(test, at)
		if got != want || !validCampaign(got) {
			t.Errorf("campaignName(%q) = %q (valid %v), want %q", test, got, validCampaign(got), want)
		}
	}
}
