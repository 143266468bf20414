package planfile

import (
	"testing"

	"github.com/sievetool/sieve/lang/ir"
)

// TestDescribe holds the one-line descriptions of actions and triggers
// that reports print for an action that never fired.
func TestDescribe(t *testing.T) {
	sts := &ir.Ref{Kind: "statefulset", Namespace: "default", Name: "ds"}
	pod := &ir.Ref{Kind: "pod", Namespace: "default", Name: "web-*"}
	cases := []struct {
		got  interface{ String() string }
		want string
	}{
		{&Action{Kind: ir.ActCrash}, "crash"},
		{&Action{Kind: ir.ActStaleOn, Scope: sts}, "stale on statefulset/default/ds"},
		{&Action{Kind: ir.ActHold, Scope: pod}, "hold pod/default/web-*"},
		{&Action{Kind: ir.ActWait, Duration: ir.Duration(5e9)}, "wait 5s"},
		{&Action{Kind: ir.ActError, Error: ir.ErrConflict}, "answer conflict"},
		{&Action{Kind: ir.ActError, Error: ir.ErrGone}, "end the watch with 410 (gone)"},
		{&Action{Kind: ir.ActAppFault, AppFault: ir.FaultUnavailable}, "answer unavailable"},
		{&Trigger{Op: ir.TrigCall, On: ir.CallHTTP, Standin: "ens-client", Method: "DELETE", Path: "/members/ens-1", Count: 1},
			"on call DELETE /members/ens-1 to ens-client"},
		{&Trigger{Op: ir.TrigCall, On: ir.CallExec, Target: pod, Command: []string{"db-ctl", "leave"}, Count: 2},
			`on call exec ["db-ctl","leave"] in pod/default/web-* #2`},
		{&Trigger{Op: ir.TrigCall}, "on call any"},
		{&Trigger{Op: ir.TrigWrite, Sent: true, On: "update", Target: sts, Count: 2}, "after sending write update statefulset/default/ds #2"},
		{&Trigger{Op: ir.TrigEvent, On: "update", Target: sts, Count: 2}, "on update statefulset/default/ds #2"},
		{&Trigger{Op: ir.TrigRead, On: "list", Target: &ir.Ref{Kind: "pod", Namespace: "default", Name: "*"}, Count: 2}, "on read list pod/default/* #2"},
		{&Trigger{Op: ir.TrigWrite, On: "delete", Target: pod, Where: &ir.Cond{Path: "status.phase", Value: "Running"}},
			`after write delete pod/default/web-* where status.phase == "Running"`},
		{&Trigger{Op: ir.TrigSeq, Args: []*Trigger{
			{Op: ir.TrigAny, Args: []*Trigger{{Op: ir.TrigTimeout, Duration: ir.Duration(3e9)}, {Op: ir.TrigEvent, On: "delete", Target: sts, Seen: SeenCluster}}},
			{Op: ir.TrigWrite, On: "create", Target: pod, Failed: true}}},
			"(after 3s | on delete statefulset/default/ds in the cluster); after failed write create pod/default/web-*"},
	}
	for _, c := range cases {
		if got := c.got.String(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
