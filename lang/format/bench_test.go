package format

import (
	"bytes"
	"os"
	"testing"

	"github.com/sievetool/sieve/lang/syntax"
)

// BenchmarkFormat10MB formats a 10 MB file made of the layout golden's
// input, repeated.
func BenchmarkFormat10MB(b *testing.B) {
	sample, err := os.ReadFile("testdata/comments.txtar")
	if err != nil {
		b.Fatal(err)
	}
	src := bytes.Repeat(sample[bytes.Index(sample, []byte("\n"))+1:bytes.Index(sample, []byte("-- out.sieve --"))], 10<<20/500)
	f, ds := syntax.Parse("big.sieve", src)
	if len(ds) > 0 {
		b.Fatal(ds)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		File(f)
	}
}
