package ensemble

import "fmt"

// layout says which component each member belongs to.
type layout struct {
	own []int // component of each member, -1 for none
	cnt []int // members of each component
}

// newLayout checks owner (nil = the default convention: member j belongs
// to component j/2, which needs members == 2L) and returns the layout.
func newLayout(owner []int, members, L int) (layout, error) {
	ly := layout{own: owner, cnt: make([]int, L)}
	if owner == nil {
		if members != 2*L {
			return ly, fmt.Errorf("ensemble: %d members for %d components (want 2L = %d, or an explicit Owner)", members, L, 2*L)
		}
		ly.own = make([]int, members)
		for j := range ly.own {
			ly.own[j] = j / 2
		}
	} else if len(owner) != members {
		return ly, fmt.Errorf("ensemble: Owner has %d entries for %d members", len(owner), members)
	}
	for j, l := range ly.own {
		if l < -1 || l >= L {
			return ly, fmt.Errorf("ensemble: member %d belongs to component %d of %d", j, l, L)
		}
		if l >= 0 {
			ly.cnt[l]++
		}
	}
	for l, n := range ly.cnt {
		if n == 0 {
			return ly, fmt.Errorf("ensemble: component %d has no member", l)
		}
	}
	return ly, nil
}

// memberWeights spreads component weights comp evenly over each
// component's members; members of no component get 0.
func (ly layout) memberWeights(dst, comp []float64) {
	for j, l := range ly.own {
		if l < 0 {
			dst[j] = 0
			continue
		}
		dst[j] = comp[l] / float64(ly.cnt[l])
	}
}
