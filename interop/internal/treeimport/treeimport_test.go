package treeimport

import (
	"errors"
	"strings"
	"testing"

	"github.com/aer-go/aer/boost"
)

func TestReadAll(t *testing.T) {
	errUnsupported := errors.New("unsupported")
	data, err := ReadAll(strings.NewReader("abc"), errUnsupported)
	if err != nil || string(data) != "abc" {
		t.Fatalf("ReadAll = %q, %v; want abc, nil", data, err)
	}
}

func TestSplitValues(t *testing.T) {
	// Node 0 splits into 1 and 2; node 2 splits into 3 and 4.
	b := &boost.Tree{
		Left:  []int32{1, -1, 3, -1, -1},
		Cover: []float64{0, 1, 0, 3, 1},
		Value: []float64{0, 2, 0, 4, 8},
	}
	SplitValues(b)
	// Node 2: (3*4+1*8)/4 = 5; its cover stays 0 (unused for node 0's
	// children here: node 0 weighs node 1 (cover 1) and node 2 (cover 0)).
	if b.Value[2] != 5 {
		t.Errorf("Value[2] = %v, want 5", b.Value[2])
	}
	if b.Value[0] != 2 {
		t.Errorf("Value[0] = %v, want 2 (cover 1 on 2, cover 0 on 5)", b.Value[0])
	}
	z := &boost.Tree{Left: []int32{1, -1, -1}, Cover: []float64{0, 0, 0}, Value: []float64{0, 1, 3}}
	SplitValues(z)
	if z.Value[0] != 2 {
		t.Errorf("zero covers: Value[0] = %v, want the plain mean 2", z.Value[0])
	}
}
