package mixture

import (
	"fmt"
	"strconv"
	"strings"
)

// Warnings returns, in words, what a user of the selection should know,
// as aer mixture and AER's fit report it: BIC chose the smallest or the
// largest L of a pool of several (the best L may lie outside the pool),
// and the collapsed components of the chosen mixture, one line per
// reason (Model.Collapsed on
// the rows the chosen model was fitted on, with ridge regCovar as in
// Settings: 0 means DefaultRegCovar, negative none). nil when there is
// nothing to say.
func (s *Selection) Warnings(regCovar float64) []string {
	if s == nil || s.Model == nil {
		return nil
	}
	var out []string
	if len(s.Candidates) > 1 {
		lo, hi := s.Candidates[0].Components, s.Candidates[0].Components
		pool := make([]int, len(s.Candidates))
		for i, c := range s.Candidates {
			lo, hi, pool[i] = min(lo, c.Components), max(hi, c.Components), c.Components
		}
		switch s.Components {
		case lo:
			out = append(out, fmt.Sprintf("BIC chose a mixture of L = %d components, the smallest of the pool %s: fewer may fit as well", lo, FormatPool(pool)))
		case hi:
			out = append(out, fmt.Sprintf("BIC chose a mixture of L = %d components, the largest of the pool %s: more may fit better", hi, FormatPool(pool)))
		}
	}
	n := 0
	if s.Result != nil {
		n = s.Result.Rows
	}
	// Components that collapsed for the same reason (often every one, on
	// the same constant feature) are one line.
	var reasons []string
	byReason := map[string][]int{}
	for _, c := range s.Model.Collapsed(n, regCovar) {
		if _, seen := byReason[c.Reason]; !seen {
			reasons = append(reasons, c.Reason)
		}
		byReason[c.Reason] = append(byReason[c.Reason], c.Component)
	}
	for _, r := range reasons {
		comps := byReason[r]
		if len(comps) == 1 {
			out = append(out, fmt.Sprintf("component %d of the chosen mixture collapsed: %s", comps[0], r))
			continue
		}
		out = append(out, fmt.Sprintf("components %s (%d of %d) of the chosen mixture collapsed: %s", FormatPool(comps), len(comps), s.Components, r))
	}
	return out
}

// LeftOutWarning is the warning for the sizes FeasiblePool dropped from
// a pool because n rows of d features are too few for them with
// covariance cov; "" when none was dropped.
func LeftOutWarning(dropped []int, n, d int, cov CovarianceType) string {
	if len(dropped) == 0 {
		return ""
	}
	return fmt.Sprintf("L = %s left out: %d rows are too few (%s covariance needs %d rows per component)",
		FormatPool(dropped), n, cov, RowsPerComponent(cov, d))
}

// FormatPool writes a pool of sizes as ParsePool reads it: runs of
// consecutive sizes as ranges, the rest as a list ("2-8", "2-4,8").
func FormatPool(pool []int) string {
	var parts []string
	for i := 0; i < len(pool); {
		j := i
		for j+1 < len(pool) && pool[j+1] == pool[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", pool[i], pool[j]))
		} else {
			parts = append(parts, strconv.Itoa(pool[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}
