package cli

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"k8s.io/klog/v2"

	"github.com/sievetool/sieve/interp/formats/results"
)

// divertClientLogs sends the log lines of the Kubernetes client libraries
// in sieve's own process (client-go's reflectors: `"Warning: watch ended
// with error"` when the control plane resets) to the results directory's
// client.log, appending, instead of the terminal. They are about sieve's
// own watches, not the user's results. restore puts them back on stderr
// and closes the file.
func divertClientLogs(l results.Layout) (restore func(), err error) {
	f, err := l.OpenClient()
	if err != nil {
		return nil, fmt.Errorf("client log: %w", err)
	}
	fmt.Fprintf(f, "--- sieve %s, %s\n", commandLine(), time.Now().UTC().Format(time.RFC3339))
	setKlog(map[string]string{"logtostderr": "false", "stderrthreshold": "FATAL"})
	klog.SetOutput(f)
	return func() {
		klog.Flush()
		setKlog(map[string]string{"logtostderr": "true", "stderrthreshold": "ERROR"})
		klog.SetOutput(os.Stderr)
		f.Close()
	}, nil
}

// setKlog sets klog's flags (klog has no setter for the stderr threshold).
func setKlog(flags map[string]string) {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	for name, v := range flags {
		_ = fs.Set(name, v) // the names and values are klog's own
	}
}

// commandLine is sieve's command line, for the client log's header.
func commandLine() string {
	if len(os.Args) < 2 {
		return ""
	}
	return strings.Join(os.Args[1:], " ")
}
