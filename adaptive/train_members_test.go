package adaptive

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/resample"
	"gonum.org/v1/gonum/mat"
)

// recorder is a member method whose fits record the rows they saw, in
// the order the fits started.
type recorder struct {
	name   string
	mu     *sync.Mutex
	log    *[]string
	shared int // the SharedWorkers a member fit must be given
}

func (r recorder) Name() string                { return r.name }
func (r recorder) Set(key, value string) error { return fmt.Errorf("%w: %s", learn.ErrParam, key) }
func (r recorder) Params() []learn.Param       { return nil }
func (r recorder) Load([]byte) (learn.Scorer, error) {
	return nil, fmt.Errorf("recorder: no payload")
}

func (r recorder) Fit(_ context.Context, train, _ *learn.Data, env learn.Env) (learn.Scorer, error) {
	r.mu.Lock()
	*r.log = append(*r.log, fmt.Sprintf("%s:%d/%d", r.name, train.Rows(), env.Workers))
	if r.name != "p" && env.SharedWorkers != r.shared {
		*r.log = append(*r.log, fmt.Sprintf("%s: shared workers %d, want %d", r.name, env.SharedWorkers, r.shared))
	}
	r.mu.Unlock()
	return constModel{p: float64(train.Rows()), seed: env.Seed}, nil
}

type constModel struct {
	p    float64
	seed uint64
}

func (m constModel) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, _ := x.Dims()
	dst = slices.Grow(dst[:0], r)[:r]
	for i := range dst {
		dst[i] = m.p
	}
	return dst, nil
}
func (m constModel) NumFeatures() int               { return 1 }
func (m constModel) MarshalBinary() ([]byte, error) { return nil, nil }

// TestTrainMembersSchedule checks that the peers are fitted first, alone
// on every worker, then the members place by place from the most rows to
// the fewest (one worker each), and that every model lands in its own
// place with the seed of its place, whatever the number of workers.
func TestTrainMembersSchedule(t *testing.T) {
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
	subsets := []resample.Subset{
		{Component: 0, Kind: resample.Global, Rows: []int{0, 1, 2}},
		{Component: 0, Kind: resample.Local, Rows: []int{0, 1, 2, 3}},
		{Component: 1, Kind: resample.Global, Rows: []int{4, 5, 6, 7, 8}},
	}
	var want [][]Member
	var wantPeers []Member
	for _, workers := range []int{1, 2} {
		var mu sync.Mutex
		var log []string
		learners := []learn.Method{recorder{"a", &mu, &log, workers}, recorder{"b", &mu, &log, workers}}
		peers := []learn.Method{recorder{"p", &mu, &log, 0}}
		members, owner, peerMembers, err := trainMembers(context.Background(), data, data, subsets, nil, learners, []string{"", ""}, []uint64{11, 22},
			peers, 0, 33, workers, nil, func(int, int) {})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(owner, []int{0, 0, 1, -1}) {
			t.Errorf("workers %d: owner %v", workers, owner)
		}
		if workers == 1 {
			// One worker takes the tasks in order.
			wantLog := []string{"p:40/1", "a:40/1", "b:40/1", "a:5/1", "b:5/1", "a:4/1", "b:4/1", "a:3/1", "b:3/1"}
			if !slices.Equal(log, wantLog) {
				t.Errorf("fit order %v, want %v", log, wantLog)
			}
			want, wantPeers = members, peerMembers
			for g, ms := range members {
				for k, mb := range ms {
					n := rows
					if k < len(subsets) {
						n = len(subsets[k].Rows)
					}
					if got := mb.Model.(constModel).p; got != float64(n) || mb.Method != learners[g].Name() {
						t.Errorf("member %d of %s: fitted on %v rows by %s, want %d", k, learners[g].Name(), got, mb.Method, n)
					}
				}
			}
			if len(peerMembers) != 1 || peerMembers[0].Name != "all rows (p)" || peerMembers[0].Model.(constModel).p != rows {
				t.Errorf("peers %+v", peerMembers)
			}
			continue
		}
		if len(log) != 9 {
			t.Errorf("workers %d: %d fits, want 9", workers, len(log))
		}
		// The peer alone first, on every worker; the members on one each.
		if len(log) > 0 && log[0] != "p:40/2" {
			t.Errorf("workers 2: first fit %s, want the peer p:40/2", log[0])
		}
		for _, e := range log[1:] {
			if e[0] == 'p' || e[len(e)-2:] != "/1" {
				t.Errorf("workers 2: fit %s after the peer", e)
			}
		}
		for g := range members {
			for k := range members[g] {
				if members[g][k].Model != want[g][k].Model || members[g][k].Name != want[g][k].Name {
					t.Errorf("workers %d: member %d/%d differs from one worker's", workers, g, k)
				}
			}
		}
		if peerMembers[0].Model != wantPeers[0].Model {
			t.Errorf("workers %d: peer differs from one worker's", workers)
		}
	}
}

// TestTrainMembersThreads: on many workers the member on every row,
// which would otherwise run alone on one thread long after the others,
// gets the threads that bring it down to the pool's span; small members
// keep one thread, and two workers change nothing.
func TestTrainMembersThreads(t *testing.T) {
	const rows, subRows, nsub = 200_000, 10_000, 36
	data := &learn.Data{X: mat.NewDense(rows, 1, nil), Y: make([]int, rows)}
	for i := 0; i < rows; i += 50 {
		data.Y[i] = 1
	}
	subsets := make([]resample.Subset, nsub)
	for k := range subsets {
		subsets[k] = resample.Subset{Component: k / 2, Kind: resample.Global, Rows: make([]int, subRows)}
		for i := range subsets[k].Rows {
			subsets[k].Rows[i] = k*subRows/4 + i
		}
	}
	for _, c := range []struct {
		workers, global int
	}{{16, 6}, {64, 12}, {2, 1}, {1, 1}} {
		p := newPlaces(data, data, subsets, nil, 1)
		th := p.threads(c.workers, 1)
		// total work 200k + 36 x 10k = 560k rows: 16 x 200k / 560k = 5.7
		// -> 6 threads; 64 workers are capped at one per 16,384 rows (12).
		if th[nsub] != c.global {
			t.Errorf("%d workers: the member on every row gets %d threads, want %d", c.workers, th[nsub], c.global)
		}
		for k := range nsub {
			if th[k] != 1 {
				t.Errorf("%d workers: subset %d of %d rows gets %d threads", c.workers, k, subRows, th[k])
			}
		}
	}
	var mu sync.Mutex
	var log []string
	learners := []learn.Method{recorder{"a", &mu, &log, 16}}
	if _, _, _, err := trainMembers(context.Background(), data, data, subsets, nil, learners, []string{""}, []uint64{1},
		nil, 0, 2, 16, nil, func(int, int) {}); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(log, "a:200000/6") || slices.Contains(log, "a:200000/1") {
		t.Errorf("the member on every row was not fitted on 6 threads: %v", log[:3])
	}
}

// NumClasses is 2: constModel scores the positive class (PositiveProba).
func (m constModel) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (m constModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}
