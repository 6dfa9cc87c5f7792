package lightgbm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/aer-go/aer/internal/ctxio"
	"github.com/aer-go/aer/interop/internal/treeimport"
)

// zeros is /dev/zero, counting what was read of it.
type zeros struct{ read int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += len(p)
	return len(p), nil
}

// TestReadRefusesGarbage: a file that cannot be a text model is refused
// after its first few KB, or at its first NUL byte, not after 1 GiB.
func TestReadRefusesGarbage(t *testing.T) {
	z := &zeros{}
	_, err := Read(z)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "byte 1 is NUL") {
		t.Fatalf("/dev/zero: %v", err)
	}
	if z.read > treeimport.SniffBytes {
		t.Errorf("read %d bytes of /dev/zero, want at most %d", z.read, treeimport.SniffBytes)
	}
	if len(err.Error()) > 300 {
		t.Errorf("the error quotes too much: %d bytes", len(err.Error()))
	}
	// A good start, then NULs: refused at the first.
	z = &zeros{}
	_, err = Read(io.MultiReader(strings.NewReader(header("v4", "binary sigmoid:1")), z))
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "is NUL") {
		t.Fatalf("a header then NULs: %v", err)
	}
	if z.read > 2<<20 {
		t.Errorf("read %d bytes of NULs", z.read)
	}
	// Blank for 4 KB and more: refused without reading on.
	z = &zeros{}
	if _, err := Read(io.MultiReader(strings.NewReader(strings.Repeat("\n", 5000)), z)); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "blank") {
		t.Fatalf("blank: %v", err)
	}
	// A short model still reads.
	if _, err := Read(strings.NewReader(header("v4", "binary sigmoid:1") + stump(0, 0, "0.5", 2, "") + tail)); err != nil {
		t.Fatal(err)
	}
	// And the first line's message keeps its line number and quotes a
	// long line cut short.
	_, err = Decode([]byte("\n\n" + strings.Repeat("x", 1<<20) + "\n"))
	if err == nil || !strings.Contains(err.Error(), "line 3 is \"xxx") || len(err.Error()) > 300 {
		t.Errorf("a long first line: %.300v", err)
	}
}

// TestHostileBitsets: a categorical bitset's codes (32 a word, however
// short the word's text) are bounded before they are decoded, in a
// split and in the model.
func TestHostileBitsets(t *testing.T) {
	words := func(n int) string {
		return strings.TrimSpace(strings.Repeat("4294967295 ", n))
	}
	// One split of 2049 full words: 65568 codes, over MaxSplitCodes.
	one := fmt.Sprintf("cat_boundaries=0 %d\ncat_threshold=%s\n", 2049, words(2049))
	_, err := Decode([]byte(header("v4", "binary sigmoid:1") + stump(0, 2, "0", 1, one) + tail))
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "(tree 0, cat_threshold): bitset 0: ") ||
		!strings.Contains(err.Error(), "too many category codes: 65568 in one split, more than the 65536") {
		t.Fatalf("one big bitset: %v", err)
	}
	if len(err.Error()) > 400 {
		t.Errorf("the error is %d bytes", len(err.Error()))
	}
	// Trees of 2048 full words each: 65536 codes a tree, the model's
	// limit passed at tree 64.
	var b strings.Builder
	b.WriteString(header("v4", "binary sigmoid:1"))
	full := fmt.Sprintf("cat_boundaries=0 2048\ncat_threshold=%s\n", words(2048))
	for k := range 65 {
		b.WriteString(stump(k, 2, "0", 1, full))
	}
	b.WriteString(tail)
	_, err = Decode([]byte(b.String()))
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "tree 64, cat_threshold") ||
		!strings.Contains(err.Error(), "more than the 4194304 aer imports in a model") {
		t.Fatalf("many bitsets: %v", err)
	}
	// A hand-built tree over the limit fails to convert, too.
	m, err := Decode([]byte(header("v4", "binary sigmoid:1") + stump(0, 2, "0", 1, full) + tail))
	if err != nil {
		t.Fatal(err)
	}
	for range 64 {
		m.Trees = append(m.Trees, m.Trees[0])
	}
	if _, err := m.Boost(); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "tree 64: split 0: bitset 0") {
		t.Errorf("Boost of too many codes: %v", err)
	}
}

// TestNonFinite: a value that overflows in conversion is refused with
// its tree, node and field, not left for the model file's JSON to fail
// on.
func TestNonFinite(t *testing.T) {
	bad := []struct{ name, text, want string }{
		{"threshold", header("v4", "binary sigmoid:1") + stump(0, 0, "1.7976931348623157e308", 2, "") + tail,
			"line 16 (tree 0, threshold): split 0: threshold 1.7976931348623157e+308"},
		{"leaf times sigmoid", header("v4", "binary sigmoid:10") + strings.Replace(stump(0, 0, "0.5", 2, ""), "leaf_value=-1 1", "leaf_value=-1 1e308", 1) + tail,
			"tree 0: leaf 1: leaf_value 1e+308 times the margin's scale 10 is +Inf"},
	}
	for _, c := range bad {
		_, err := Decode([]byte(c.text))
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// A hand-built tree too: Boost refuses what would not be finite.
	m, err := Decode([]byte(header("v4", "binary sigmoid:1") + stump(0, 0, "0.5", 2, "") + tail))
	if err != nil {
		t.Fatal(err)
	}
	m.Trees[0].LeafValue[1], m.Sigmoid = math.MaxFloat64, 2
	if _, err := m.Boost(); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "tree 0: leaf 1: leaf_value 1.7976931348623157e+308 times the margin's scale 2 is +Inf") {
		t.Errorf("Boost of a leaf that overflows: %v", err)
	}
	m.Trees[0].LeafValue[1], m.Trees[0].Threshold[0] = 1, math.MaxFloat64
	if _, err := m.Boost(); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "tree 0: split 0: threshold 1.7976931348623157e+308") {
		t.Errorf("Boost of a threshold that overflows: %v", err)
	}
	// Leaves whose count-weighted mean overflows in its products: the
	// split's value is computed another way, finite.
	text := header("v4", "binary sigmoid:1") + strings.Replace(stump(0, 0, "0.5", 2, ""), "leaf_value=-1 1", "leaf_value=1e308 1.5e308", 1) + tail
	_, bm := decodeOne(t, text)
	if v := bm.Trees[0].Value[0]; !(v > 1e308) {
		t.Errorf("the split's value is %v", v)
	}
	if _, err := bm.MarshalBinary(); err != nil {
		t.Error(err)
	}
}

// TestDecodeCancelled: cancelling the context stops a large model's
// reading and decoding promptly with its error.
func TestDecodeCancelled(t *testing.T) {
	var b strings.Builder
	b.WriteString(header("v4", "binary sigmoid:1"))
	for k := range 20000 {
		b.WriteString(stump(k, 0, "0.5", 2, ""))
	}
	b.WriteString(tail)
	data := []byte(b.String())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if _, err := DecodeContext(ctx, data); !errors.Is(err, context.Canceled) {
		t.Fatalf("DecodeContext, cancelled: %v", err)
	}
	if _, err := ReadContext(ctx, ctxio.NewReader(ctx, strings.NewReader(b.String()))); !errors.Is(err, context.Canceled) {
		t.Fatalf("ReadContext, cancelled: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("cancelled decoding took %v", d)
	}
	// Cancelled while it decodes: it stops at the next tree.
	ctx, cancel = context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := DecodeContext(ctx, data); done <- err }()
	cancel()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled mid-decode: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("decoding went on after cancel")
	}
	if m, err := DecodeContext(context.Background(), data); err != nil || len(m.Trees) != 20000 {
		t.Fatalf("the model decodes: %v", err)
	}
}
