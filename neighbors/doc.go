// Package neighbors provides exact Euclidean k-nearest-neighbour search by
// brute force, the building block of Tomek-link cleaning in package resample.
//
// An Index holds reference rows (copied, row-major, with their squared
// norms). Search, SearchFlat and SearchSelf return, for every query row, the
// k nearest reference rows by position in the index, nearest first.
//
// # Exactness
//
// The scan ranks references by the expansion
//
//	||q - r||² = ||q||² + ||r||² - 2 q·r,
//
// computed over cache-sized blocks of queries and references (a 3x2 register
// tile of dot products in Go; on amd64 with AVX2 and FMA an assembly kernel
// of 4 queries x 8 reference rows, with AVX-512 8 x 8, and a float32
// pre-filter of 6 x 16 (AVX2; 4 x 16 for the block's last queries) or
// 8 x 16 (AVX-512) whose margin bounds its float32 error; it does twice
// the multiply-adds per instruction; on AVX2, where the data allow it, the
// 6 x 16 tiles filter on int16 copies of the rows instead, whose bound
// holds in distance, and score the rows that pass in float64), which is
// fast but carries a rounding error of order (d+2)·eps·(||q||² + ||r||²)
// (d·2^-24·(...) for the float32 filter). The scan therefore keeps, per query,
// every reference whose expanded score lies within a rigorous error margin
// of the current k-th best, and finally recomputes the distance of those few
// candidates directly as the sum over features of (q_t - r_t)², in feature
// order. The answer is decided on these direct distances alone, so it equals
// the answer of a naive search that computes every distance directly:
// near-ties are never decided by the cancellation-prone expansion.
//
// SearchSelf with all rows computes each dot product once for both
// directions of a pair, which saves about a third of the time of the usual
// "every row's k nearest neighbours" query.
//
// # Tree search
//
// A search of at least 256 queries over at least 4096 reference rows of at
// most 64 columns first builds a k-d tree (median splits on the widest
// column, tight bounding boxes, leaves of up to 48 rows) and answers 64
// probe queries with it, nearer child first, skipping every node whose box
// is farther than the k-th best so far. Leaf distances are the same direct
// sums, in feature order, on which the scan decides, and a box is skipped
// only when its bound (shrunk by a relative 2^-40) exceeds the k-th best,
// so the answers, ties included, are the scan's. As soon as the probe has
// visited more than a tenth of the rows per query the search falls back to
// the scan, and so do later searches of the index; the tree, when it
// prunes, is kept for them too (Options.Exhaustive forces the scan). On
// make_classification data with 20 columns (10 informative), unstandardised,
// the tree visits 14% of 60k rows, 10% of 180k and 5% of 600k per query
// (measured against the float64 scan, before the float32 filter; the
// cutoff was not re-measured since). Standardised, as AER's subsets are,
// it visits 30-62% and the scan wins, so the Tomek links there still grow
// as n^2.
// On isotropic data in 20 or more dimensions it prunes little and the probe
// falls back to the scan. From 65,536 rows a pre-probe on a tree over every
// 16th row first rules out trees that cannot pass the probe (a tree visits
// at best as many rows on all rows as on the thinned ones), so that such
// data do not pay for building the full tree: standardised, issue 14's
// data make the full tree visit over half the rows.
//
// # Giving up early
//
// SearchSelfWithin takes a bound per query and may abandon a query as soon
// as the scan meets another row certainly nearer than its bound (by more
// than the rounding margin), reporting position -1; the queries left in a
// block are packed together after each reference block so the kernels
// keep full tiles. Tomek links check with it whether a partner's nearest
// neighbour is the row that chose it: on make_classification data with
// 20 columns, 1% minority, standardised (issue 14), this second search
// then computes about 22% of the distances of a full one.
//
// # Ties and self-exclusion
//
// Ties in the direct distance go to the smaller reference position. A query
// that is itself a reference row (SearchSelf, or the exclude argument of
// Search) never finds itself; exact duplicates of it are ordinary
// neighbours at distance 0. Excluding by index rather than dropping the
// first neighbour keeps the answer right when rows are duplicated.
//
// # Parallelism
//
// Query blocks (row blocks for SearchSelf with all rows) are spread over
// Options.Workers goroutines. Every answer is decided on direct distances
// among candidates that any schedule is guaranteed to keep, so results are
// identical for any worker count.
package neighbors
