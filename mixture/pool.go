package mixture

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxPoolRange bounds the span of one range of a pool ("1-1000").
const maxPoolRange = 1000

// MaxComponents bounds a mixture size L: a mixture holds L means and
// covariances.
const MaxComponents = 100_000

// ParsePool reads a pool of mixture sizes L, as aer mixture --components
// and AER's components parameter take it: a size "3", a range "2-8", a
// list "2,4,6" or both ("2-4,8"). The sizes come back increasing, without
// duplicates; a size below 1 or above MaxComponents, a range of more
// than 1000 sizes or any other text is an error naming the part.
func ParsePool(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil || a < 1 {
			return nil, fmt.Errorf("%q is not a size or a range of sizes like 3, 2-8 or 2,4,6", part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil || b < a {
				return nil, fmt.Errorf("%q is not a range of sizes like 2-8", part)
			}
		}
		if b > MaxComponents {
			return nil, fmt.Errorf("%q: sizes of at most %d", part, MaxComponents)
		}
		if b-a > maxPoolRange {
			return nil, fmt.Errorf("%q: range too large (at most %d sizes)", part, maxPoolRange)
		}
		for l := a; l <= b; l++ {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// RowsPerComponent is the fewest rows each component of a mixture needs
// to stand on: d+1 with full or tied covariances over d features, else 2.
// A larger L only fits degenerate components, whose huge densities win
// the BIC; AER keeps the L its majority rows can support.
func RowsPerComponent(cov CovarianceType, d int) int {
	if cov == Full || cov == Tied {
		return d + 1
	}
	return 2
}

// FeasiblePool splits pool into the sizes L that n rows of d features
// can support with covariance cov (L * RowsPerComponent <= n) and the
// others, each in pool order.
func FeasiblePool(pool []int, cov CovarianceType, d, n int) (kept, dropped []int) {
	per := RowsPerComponent(cov, d)
	for _, l := range pool {
		if l*per <= n {
			kept = append(kept, l)
		} else {
			dropped = append(dropped, l)
		}
	}
	return kept, dropped
}

// ParseInit reads an initialisation by name: kmeans (or k-means) or
// kmeans++ (or k-means++).
func ParseInit(s string) (Init, error) {
	switch s {
	case "kmeans", "k-means":
		return InitKMeans, nil
	case "kmeans++", "k-means++":
		return InitKMeansPP, nil
	}
	return 0, fmt.Errorf("%q: want kmeans or kmeans++", s)
}
