package aer_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/interop/lightgbm"
	"github.com/aer-go/aer/interop/xgboost"
)

// stumps is a LightGBM text model of n stumps on features a, b, c.
func stumps(n int) string {
	var b strings.Builder
	b.WriteString("tree\nversion=v4\nnum_class=1\nnum_tree_per_iteration=1\nlabel_index=0\nmax_feature_idx=2\n" +
		"objective=binary sigmoid:1\nfeature_names=a b c\nfeature_infos=[-5:5] [-5:5] [-5:5]\n")
	for k := range n {
		fmt.Fprintf(&b, "\nTree=%d\nnum_leaves=2\nnum_cat=0\nsplit_feature=0\nsplit_gain=1.5\nthreshold=0.5\ndecision_type=2\n"+
			"left_child=-1\nright_child=-2\nleaf_value=-0.01 0.01\nleaf_count=10 30\ninternal_value=0\ninternal_count=40\nshrinkage=0.1\n", k)
	}
	b.WriteString("\nend of trees\n")
	return b.String()
}

// cancelAfter reads r and cancels ctx once it has read n bytes (n < 0:
// at r's end).
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n -= k
	if c.n == 0 || (c.n < 0 && c.n+k >= 0) || err == io.EOF {
		c.cancel()
	}
	return k, err
}

// TestImportCancelled: cancelling the context mid-import of a large
// model (while it is read, or once it is read, while it is decoded)
// stops the import promptly with the context's error.
func TestImportCancelled(t *testing.T) {
	table := csvTable(t, "a,b,c,label\n0,1,2,0\n1,0,2,1\n2,0,1,1\n0,0,0,0\n")
	model := stumps(20000) // 4 MB
	for _, at := range []int{1 << 20, len(model)} {
		ctx, cancel := context.WithCancel(context.Background())
		start := time.Now()
		r := strings.NewReader(model)
		_, err := aer.Import(ctx, &cancelAfter{r: r, n: at, cancel: cancel}, aer.FromLightGBM, table)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled after %d bytes: %v, want context.Canceled", at, err)
		}
		if read := len(model) - r.Len(); at < len(model) && read > at+64<<10 {
			t.Errorf("cancelled after %d bytes: read %d of %d", at, read, len(model))
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("cancelled after %d bytes: took %v", at, d)
		}
		cancel()
	}
	if m, err := aer.Import(context.Background(), strings.NewReader(stumps(50)), aer.FromLightGBM, table); err != nil || m.ImportedFrom().Trees != 50 {
		t.Fatalf("the model imports: %v", err)
	}
}

// TestImportHostile: files that cannot be models are refused after a
// few KB; a long feature name is quoted short.
func TestImportHostile(t *testing.T) {
	table := csvTable(t, "a,b,c,label\n0,1,2,0\n1,0,2,1\n2,0,1,1\n0,0,0,0\n")
	if _, err := os.Stat("/dev/zero"); err == nil {
		for _, from := range []string{aer.FromXGBoost, aer.FromLightGBM} {
			start := time.Now()
			_, err := aer.ImportFile(context.Background(), "/dev/zero", from, table)
			if !errors.Is(err, xgboost.ErrFormat) && !errors.Is(err, lightgbm.ErrFormat) {
				t.Errorf("%s /dev/zero: %v", from, err)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("%s /dev/zero: refused after %v", from, d)
			}
		}
	}
	long := strings.Repeat("n", 5<<20)
	model := strings.Replace(stumps(1), "feature_names=a b c", "feature_names=a "+long+" c", 1)
	_, err := aer.Import(context.Background(), strings.NewReader(model), aer.FromLightGBM, table)
	if !errors.Is(err, aer.ErrImport) || !strings.Contains(err.Error(), "feature 2 is \"nnnn") || len(err.Error()) > 400 {
		t.Errorf("a 5 MB feature name: %d bytes: %.400v", len(fmt.Sprint(err)), err)
	}
}
