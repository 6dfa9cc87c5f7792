package mixture

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aer-go/aer/internal/cputime"
	"github.com/aer-go/aer/internal/par"
)

// kmeansOracle is Lloyd's algorithm as it was before Hamerly's bounds: every
// row's distance to every centre on every iteration. kmeans must return
// exactly its labels.
// kmeansOracle runs Lloyd's algorithm from k-means++ seeds and returns the label
// of every row. It stops when the centres move by less than 1e-4 times the
// mean feature variance (scikit-learn's tolerance), labels stop changing,
// or after maxIter iterations. An empty cluster is moved to the row
// farthest from its centre.
// It stops with ctx's error when ctx is cancelled.
func kmeansOracle(ctx context.Context, x []float64, stride, n, d, k, maxIter, workers int, rnd *rand.Rand) ([]int, error) {
	seeds := kmeansPP(x, stride, n, d, k, rnd)
	centers := make([]float64, k*d)
	for c, s := range seeds {
		copy(centers[c*d:(c+1)*d], x[s*stride:s*stride+d])
	}
	// tolerance: 1e-4 * mean of per-feature variances
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range x[i*stride : i*stride+d] {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	varSum := 0.0
	for i := 0; i < n; i++ {
		for j, v := range x[i*stride : i*stride+d] {
			t := v - mean[j]
			varSum += t * t
		}
	}
	tol := 1e-4 * varSum / float64(n) / float64(d)

	labels := make([]int, n)
	for i := range labels {
		labels[i] = -1
	}
	dist := make([]float64, n)
	changed := make([]bool, numBlocks(n))
	sums := make([]float64, k*d)
	counts := make([]int, k)
	for it := 0; it < maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		par.ForWorker(workers, numBlocks(n), func(_, b int) {
			r0, r1 := b*blockRows, min((b+1)*blockRows, n)
			ch := false
			for i := r0; i < r1; i++ {
				xi := x[i*stride : i*stride+d]
				best, bd := 0, math.Inf(1)
				for c := 0; c < k; c++ {
					if v := sqDist(xi, centers[c*d:(c+1)*d]); v < bd {
						best, bd = c, v
					}
				}
				if labels[i] != best {
					ch = true
				}
				labels[i], dist[i] = best, bd
			}
			changed[b] = ch
		})
		if it > 0 && !slices.Contains(changed, true) {
			break
		}
		clear(sums)
		clear(counts)
		for i := 0; i < n; i++ {
			c := labels[i]
			counts[c]++
			s := sums[c*d : (c+1)*d]
			for j, v := range x[i*stride : i*stride+d] {
				s[j] += v
			}
		}
		// Relocate empty clusters to the rows farthest from their centres.
		for c := 0; c < k; c++ {
			if counts[c] > 0 {
				continue
			}
			far := 0
			for i := 1; i < n; i++ {
				if dist[i] > dist[far] {
					far = i
				}
			}
			old := labels[far]
			if counts[old] > 1 {
				counts[old]--
				os := sums[old*d : (old+1)*d]
				for j, v := range x[far*stride : far*stride+d] {
					os[j] -= v
				}
				labels[far] = c
				counts[c] = 1
				copy(sums[c*d:(c+1)*d], x[far*stride:far*stride+d])
			}
			dist[far] = 0
		}
		shift := 0.0
		for c := 0; c < k; c++ {
			if counts[c] == 0 {
				continue
			}
			inv := 1 / float64(counts[c])
			for j := 0; j < d; j++ {
				v := sums[c*d+j] * inv
				t := v - centers[c*d+j]
				shift += t * t
				centers[c*d+j] = v
			}
		}
		if shift <= tol {
			// One more assignment so labels match the final centres.
			for i := 0; i < n; i++ {
				xi := x[i*stride : i*stride+d]
				best, bd := 0, math.Inf(1)
				for c := 0; c < k; c++ {
					if v := sqDist(xi, centers[c*d:(c+1)*d]); v < bd {
						best, bd = c, v
					}
				}
				labels[i] = best
			}
			break
		}
	}
	return labels, nil
}

// TestKmeansHamerlyAgainstOracle: Hamerly's bounds give exactly the labels
// of plain Lloyd from the same seeds, on clustered data, on grid data full
// of ties and duplicates, with fewer distinct rows than clusters (empty
// clusters relocated), with a stride wider than the rows, on 1 and 2
// workers.
func TestKmeansHamerlyAgainstOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	type data struct {
		name         string
		x            []float64
		n, d, stride int
	}
	var sets []data
	for _, d := range []int{1, 2, 5, 20} {
		n := 3000
		x := make([]float64, n*d)
		centres := make([]float64, 6*d)
		for i := range centres {
			centres[i] = 4 * r.NormFloat64()
		}
		for i := range n {
			c := r.IntN(6)
			for j := range d {
				x[i*d+j] = centres[c*d+j] + r.NormFloat64()
			}
		}
		sets = append(sets, data{"clusters", x, n, d, d})
		g := make([]float64, n*(d+1))
		for i := range n {
			for j := range d {
				g[i*(d+1)+j] = float64(r.IntN(3))
			}
			g[i*(d+1)+d] = math.NaN() // outside the row: must not be read
		}
		sets = append(sets, data{"grid", g, n, d, d + 1})
	}
	few := []float64{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 5, 5, 0, 0, 1, 1}
	sets = append(sets, data{"few distinct", few, 8, 2, 2})
	for _, s := range sets {
		for _, k := range []int{1, 2, 3, 8, 13} {
			if k > s.n {
				continue
			}
			for seed := range uint64(3) {
				want, err := kmeansOracle(context.Background(), s.x, s.stride, s.n, s.d, k, 300, 1, rand.New(rand.NewPCG(seed, 1)))
				if err != nil {
					t.Fatal(err)
				}
				for _, w := range []int{1, 2} {
					got, err := kmeans(context.Background(), s.x, s.stride, s.n, s.d, k, 300, w, rand.New(rand.NewPCG(seed, 1)))
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("%s d=%d k=%d seed=%d workers=%d: labels differ from plain Lloyd", s.name, s.d, k, seed, w)
					}
				}
			}
		}
	}
}

// BenchmarkKmeans100k times one k-means (k-means++ then Lloyd) on 100k x
// 20 rows in 8 overlapping clusters, k = 8, with Hamerly's bounds and
// plain Lloyd (and the k-means++ seeding alone), one worker; it reports process CPU seconds per fit beside wall time.
func BenchmarkKmeans100k(b *testing.B) {
	const n, d, k = 100_000, 20, 8
	r := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, n*d)
	centres := make([]float64, k*d)
	for i := range centres {
		centres[i] = 1.5 * r.NormFloat64()
	}
	for i := range n {
		c := r.IntN(k)
		for j := range d {
			x[i*d+j] = centres[c*d+j] + r.NormFloat64()
		}
	}
	for _, v := range []struct {
		name string
		f    func(context.Context, []float64, int, int, int, int, int, int, *rand.Rand) ([]int, error)
	}{{"hamerly", kmeans}, {"lloyd", kmeansOracle}, {"seeding", func(_ context.Context, x []float64, stride, n, d, k, _, _ int, rnd *rand.Rand) ([]int, error) {
		return kmeansPP(x, stride, n, d, k, rnd), nil
	}}} {
		b.Run(v.name, func(b *testing.B) {
			c0 := cputime.Seconds()
			for i := 0; b.Loop(); i++ {
				if _, err := v.f(context.Background(), x, d, n, d, k, 300, 1, rand.New(rand.NewPCG(uint64(i), 2))); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Seconds()-c0)/float64(b.N), "cpu-s/op")
		})
	}
}
