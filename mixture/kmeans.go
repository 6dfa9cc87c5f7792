package mixture

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
)

// kmeansPP chooses k seed rows by greedy k-means++ (Arthur and
// Vassilvitskii; the greedy variant of scikit-learn, which tries
// 2+floor(log k) candidates per step and keeps the one that lowers the
// potential most). When every row already coincides with a seed (fewer
// distinct rows than k) the next seed is drawn uniformly.
func kmeansPP(x []float64, stride, n, d, k int, rnd *rand.Rand) []int {
	trials := 2 + int(math.Log(float64(k)))
	seeds := make([]int, 0, k)
	closest := make([]float64, n)
	cand := make([]float64, trials*n)
	first := rnd.IntN(n)
	seeds = append(seeds, first)
	pot := 0.0
	for i := 0; i < n; i++ {
		closest[i] = sqDist(x[i*stride:i*stride+d], x[first*stride:first*stride+d])
		pot += closest[i]
	}
	cum := make([]float64, n)
	for len(seeds) < k {
		if !(pot > 0) {
			seeds = append(seeds, rnd.IntN(n))
			continue
		}
		s := 0.0
		for i, v := range closest {
			s += v
			cum[i] = s
		}
		ids := make([]int, trials)
		for t := range ids {
			r := rnd.Float64() * pot
			id, _ := slices.BinarySearch(cum, r)
			ids[t] = min(id, n-1)
		}
		// best starts at the first candidate: with squared distances that
		// overflow to +Inf no candidate is below bestPot (and -1 panicked).
		best, bestPot := 0, math.Inf(1)
		for t, id := range ids {
			c := x[id*stride : id*stride+d]
			dt := cand[t*n : (t+1)*n]
			p := 0.0
			for i := 0; i < n; i++ {
				v := min(closest[i], sqDist(x[i*stride:i*stride+d], c))
				dt[i] = v
				p += v
			}
			if p < bestPot {
				best, bestPot = t, p
			}
		}
		seeds = append(seeds, ids[best])
		copy(closest, cand[best*n:(best+1)*n])
		pot = bestPot
	}
	return seeds
}

func sqDist(a, b []float64) float64 { return sqdiff(a, b) }

// kmeans runs Lloyd's algorithm from k-means++ seeds and returns the label
// of every row. It stops when the centres move by less than 1e-4 times the
// mean feature variance (scikit-learn's tolerance), labels stop changing,
// or after maxIter iterations. An empty cluster is moved to the row
// farthest from its centre.
// It stops with ctx's error when ctx is cancelled.
func kmeans(ctx context.Context, x []float64, stride, n, d, k, maxIter, workers int, rnd *rand.Rand) ([]int, error) {
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
		parallel(workers, numBlocks(n), func(_, b int) {
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
