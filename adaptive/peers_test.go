package adaptive

import (
	"context"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

func TestStratifiedSample(t *testing.T) {
	y := make([]int, 1000)
	for i := range 30 {
		y[i*7] = 1
	}
	for _, c := range []struct{ k, pos int }{{100, 30}, {40, 20}, {10, 5}} {
		rows := stratifiedSample(y, c.k, 3)
		if len(rows) != c.k {
			t.Fatalf("k %d: %d rows", c.k, len(rows))
		}
		if !slices.IsSorted(rows) || len(slices.Compact(slices.Clone(rows))) != c.k {
			t.Fatalf("k %d: rows not sorted or repeated: %v", c.k, rows)
		}
		pos := 0
		for _, r := range rows {
			pos += y[r]
		}
		if pos != c.pos {
			t.Errorf("k %d: %d positives, want %d", c.k, pos, c.pos)
		}
		if again := stratifiedSample(y, c.k, 3); !slices.Equal(again, rows) {
			t.Errorf("k %d: the same seed drew other rows", c.k)
		}
	}
	if a, b := stratifiedSample(y, 100, 3), stratifiedSample(y, 100, 4); slices.Equal(a, b) {
		t.Error("two seeds drew the same rows")
	}
}

// TestPeerRows checks that peers are fitted on at most peerRows rows and
// the members on all of them.
func TestPeerRows(t *testing.T) {
	const rows = 40
	x := mat.NewDense(rows, 1, nil)
	y := make([]int, rows)
	for i := range y {
		x.Set(i, 0, float64(i))
		if i%10 == 0 {
			y[i] = 1
		}
	}
	data := &learn.Data{X: x, Y: y}
	for _, c := range []struct{ peerRows, want int }{{0, rows}, {-1, rows}, {25, 25}, {rows, rows}} {
		var mu sync.Mutex
		var log []string
		learners := []learn.Method{recorder{"a", &mu, &log, 1}}
		peers := []learn.Method{recorder{"p", &mu, &log, 0}}
		_, _, pm, err := trainMembers(context.Background(), data, data, nil, nil, learners, []string{""}, []uint64{1},
			peers, c.peerRows, 2, 1, nil, func(int, int) {})
		if err != nil {
			t.Fatal(err)
		}
		if got := pm[0].Model.(constModel).p; got != float64(c.want) {
			t.Errorf("peer_rows %d: peer fitted on %v rows, want %d", c.peerRows, got, c.want)
		}
		if !slices.Contains(log, "a:40/1") {
			t.Errorf("peer_rows %d: the global member was not fitted on every row: %v", c.peerRows, log)
		}
	}
}
