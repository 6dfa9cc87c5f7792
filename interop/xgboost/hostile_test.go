package xgboost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/aer-go/aer/interop/internal/treeimport"
)

// zeros is /dev/zero, counting what was read of it.
type zeros struct{ read int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += len(p)
	return len(p), nil
}

// TestReadRefusesGarbage: a file that cannot be a model is refused after
// its first few KB, a JSON one at its first NUL byte, not after 1 GiB.
func TestReadRefusesGarbage(t *testing.T) {
	z := &zeros{}
	if _, err := Read(z); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `byte 1 is '\x00'; an XGBoost model (JSON or UBJSON) starts with '{'`) {
		t.Fatalf("/dev/zero: %v", err)
	}
	if z.read > treeimport.SniffBytes {
		t.Errorf("read %d bytes of /dev/zero, want at most %d", z.read, treeimport.SniffBytes)
	}
	z = &zeros{}
	if _, err := Read(io.MultiReader(strings.NewReader(`{"learner": `), z)); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "byte 13 is NUL") {
		t.Fatalf("JSON then NULs: %v", err)
	}
	if z.read > 2<<20 {
		t.Errorf("read %d bytes of NULs", z.read)
	}
	z = &zeros{}
	if _, err := Read(io.MultiReader(strings.NewReader(strings.Repeat(" ", 5000)), z)); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "white space") {
		t.Fatalf("white space: %v", err)
	}
	for _, ok := range []string{tinyJSON, "  \n" + tinyJSON} {
		if _, err := Read(strings.NewReader(ok)); err != nil {
			t.Fatalf("%.20q: %v", ok, err)
		}
	}
	if _, err := Read(strings.NewReader("")); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("empty: %v", err)
	}
}

// TestHostileCategories: splits that share one segment of categories
// cannot make the importer allocate the segment once per split without
// bound.
func TestHostileCategories(t *testing.T) {
	const codes, nodes = 1 << 16, 70 // 70 x 65536 codes > MaxCodes
	cats := make([]string, codes)
	for i := range cats {
		cats[i] = fmt.Sprint(i)
	}
	rep := func(s string, n int) string { return strings.TrimSuffix(strings.Repeat(s+",", n), ",") }
	left := "1,-1," + rep("-1", nodes-2)
	right := "2,-1," + rep("-1", nodes-2)
	catNodes := make([]string, nodes)
	for i := range catNodes {
		catNodes[i] = fmt.Sprint(i)
	}
	tree := fmt.Sprintf(`{"categories":[%s],"categories_nodes":[%s],"categories_segments":[%s],"categories_sizes":[%s],`+
		`"default_left":[%s],"left_children":[%s],"right_children":[%s],"loss_changes":[%s],"split_conditions":[%s],`+
		`"split_indices":[%s],"split_type":[%s],"sum_hessian":[%s]}`,
		strings.Join(cats, ","), strings.Join(catNodes, ","), rep("0", nodes), rep(fmt.Sprint(codes), nodes),
		rep("0", nodes), left, right, rep("1", nodes), rep("0.5", nodes), rep("1", nodes), rep("1", nodes), rep("1", nodes))
	doc := strings.Replace(tinyJSON, tinyJSON[strings.Index(tinyJSON, `"trees":[`)+9:strings.Index(tinyJSON, `]},"name":"gbtree"`)], tree, 1)
	_, err := Decode([]byte(doc))
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "categories_sizes[64]: too many category codes: 4259840 in the splits so far") ||
		!strings.Contains(err.Error(), "more than the 4194304 aer imports in a model") {
		t.Fatalf("shared segments: %v", err)
	}
}

// TestNonFinite: infinite values are refused at import with the tree,
// node and field, not left for the model file's JSON to fail on.
func TestNonFinite(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{`"split_conditions":[5E-1,`, `"split_conditions":[-Infinity,`, "trees[0]: node 0: split_conditions -Inf: a numeric split at -Inf sends every value right"},
		{`"split_conditions":[5E-1,-1E-1,`, `"split_conditions":[5E-1,Infinity,`, "node 1: leaf value +Inf"},
		{`"split_conditions":[5E-1,-1E-1,`, `"split_conditions":[5E-1,1E300,`, "node 1: leaf value +Inf"},
		{`"base_score":"5E-1"`, `"base_score":"1E40"`, "base score +Inf"},
	} {
		doc := strings.Replace(tinyJSON, c.from, c.to, 1)
		if doc == tinyJSON {
			t.Fatalf("no %s", c.from)
		}
		m, err := Decode([]byte(doc))
		if err == nil {
			_, err = m.Boost()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !(errors.Is(err, ErrFormat) || errors.Is(err, ErrUnsupported)) {
			t.Errorf("%s: %v, want %q", c.to, err, c.want)
		}
	}
	// A leaf's value times dart's weight overflows float32 but not
	// float64: finite, and converted.
	m, err := Decode([]byte(tinyJSON))
	if err != nil {
		t.Fatal(err)
	}
	m.Trees[0].Condition[1], m.Trees[0].Weight = 3e38, 1e30
	if _, err := m.Boost(); err != nil {
		t.Errorf("a large finite leaf: %v", err)
	}
}

// TestDecodeCancelled: a cancelled context stops the decoding with its
// error.
func TestDecodeCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if _, err := DecodeContext(ctx, []byte(tinyJSON)); !errors.Is(err, context.Canceled) {
		t.Fatalf("DecodeContext, cancelled: %v", err)
	}
	if _, err := ReadContext(ctx, strings.NewReader(tinyJSON)); !errors.Is(err, context.Canceled) {
		t.Fatalf("ReadContext, cancelled: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
}
