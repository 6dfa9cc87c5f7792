package mixture

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/aer-go/aer/internal/par"
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
//
// The assignment step uses Hamerly's bounds (Hamerly, "Making k-means even
// faster", 2010): per row an upper bound on the distance to its centre and
// a lower bound on the distance to every other, moved by the centres'
// shifts each iteration; a row whose upper bound is below the larger of its
// lower bound and half the distance from its centre to the nearest other
// centre keeps its label without computing a distance. The comparison
// leaves a margin far above the rounding of the bounds, so a row is skipped
// only when every other centre is certainly farther: the labels are exactly
// those of plain Lloyd, ties (to the smaller centre) included. A row that
// is not skipped is assigned by the plain scan over all centres.
func kmeans(ctx context.Context, x []float64, stride, n, d, k, maxIter, workers int, rnd *rand.Rand) ([]int, error) {
	seeds := kmeansPP(x, stride, n, d, k, rnd)
	centers := make([]float64, k*d)
	for c, s := range seeds {
		copy(centers[c*d:(c+1)*d], x[s*stride:s*stride+d])
	}
	// tolerance: 1e-4 * mean of per-feature variances
	mean := columnMeans(x, stride, n, d)
	varSum, maxNorm := 0.0, 0.0
	for i := 0; i < n; i++ {
		nrm := 0.0
		for j, v := range x[i*stride : i*stride+d] {
			t := v - mean[j]
			varSum += t * t
			nrm += v * v
		}
		maxNorm = max(maxNorm, nrm)
	}
	tol := 1e-4 * varSum / float64(n) / float64(d)
	// Bounds are distances between points of the data's hull, each
	// operation rounded to a relative 1e-16 or so; 1e-9 of the largest norm
	// covers their rounding over any number of iterations.
	margin := 1e-9 * math.Sqrt(maxNorm)

	labels := make([]int, n)
	upper := make([]float64, n) // >= distance to the centre of labels[i]
	lower := make([]float64, n) // <= distance to every other centre
	for i := range labels {
		labels[i] = -1
		upper[i] = math.Inf(1)
	}
	half := make([]float64, k) // half the distance to the nearest other centre
	move := make([]float64, k) // distance each centre moved in the last update
	prev := make([]float64, k*d)
	changed := make([]bool, numBlocks(n))
	sums := make([]float64, k*d)
	counts := make([]int, k)
	// scan assigns row i from every distance, as plain Lloyd does.
	scan := func(i int, xi []float64) {
		best, bd, second := 0, math.Inf(1), math.Inf(1)
		for c := 0; c < k; c++ {
			v := sqDist(xi, centers[c*d:(c+1)*d])
			if v < bd {
				best, bd, second = c, v, bd
			} else if v < second {
				second = v
			}
		}
		labels[i], upper[i], lower[i] = best, math.Sqrt(bd), math.Sqrt(second)
	}
	for it := 0; it < maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for c := range k {
			h := math.Inf(1)
			for c2 := range k {
				if c2 != c {
					h = min(h, math.Sqrt(sqDist(centers[c*d:(c+1)*d], centers[c2*d:(c2+1)*d])))
				}
			}
			half[c] = h / 2
		}
		par.ForWorker(workers, numBlocks(n), func(_, b int) {
			r0, r1 := b*blockRows, min((b+1)*blockRows, n)
			ch := false
			for i := r0; i < r1; i++ {
				a := labels[i]
				if a >= 0 && upper[i]+margin < max(lower[i], half[a]) {
					continue
				}
				xi := x[i*stride : i*stride+d]
				if a >= 0 {
					upper[i] = math.Sqrt(sqDist(xi, centers[a*d:(a+1)*d]))
					if upper[i]+margin < max(lower[i], half[a]) {
						continue
					}
				}
				scan(i, xi)
				if labels[i] != a {
					ch = true
				}
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
		// Relocate empty clusters to the rows farthest from their centres
		// (distances computed afresh: skipped rows kept only bounds).
		if slices.Contains(counts, 0) {
			dist := make([]float64, n)
			for i := range dist {
				c := labels[i]
				dist[i] = sqDist(x[i*stride:i*stride+d], centers[c*d:(c+1)*d])
			}
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
				was := labels[far]
				if counts[was] > 1 {
					counts[was]--
					ws := sums[was*d : (was+1)*d]
					for j, v := range x[far*stride : far*stride+d] {
						ws[j] -= v
					}
					labels[far] = c
					counts[c] = 1
					copy(sums[c*d:(c+1)*d], x[far*stride:far*stride+d])
					// Its bounds refer to the old centre: rescan it.
					upper[far], lower[far] = math.Inf(1), 0
				}
				dist[far] = 0
			}
		}
		copy(prev, centers)
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
		// Move the bounds by the centres' shifts: the lower bound by the
		// largest shift among the other centres.
		m1, m2, arg := -1.0, 0.0, -1 // largest and second largest shift
		for c := range k {
			move[c] = math.Sqrt(sqDist(prev[c*d:(c+1)*d], centers[c*d:(c+1)*d]))
			if !(move[c] <= m1) { // NaN moves win, and poison the bounds
				m1, m2, arg = move[c], max(m1, 0), c
			} else if move[c] > m2 {
				m2 = move[c]
			}
		}
		par.ForWorker(workers, numBlocks(n), func(_, b int) {
			for i := b * blockRows; i < min((b+1)*blockRows, n); i++ {
				a := labels[i]
				upper[i] += move[a]
				if a == arg {
					lower[i] -= m2
				} else {
					lower[i] -= m1
				}
			}
		})
	}
	return labels, nil
}
