// Package suggest finds the names a mistyped one was probably meant to
// be, for "did you mean" hints: a method name given to the registry, a
// flag given to aer. A name is close when it is a few edits away
// (adjacent transpositions count as one edit), ignoring case, or when the
// typed word begins it.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// most is the most names Close returns.
const most = 3

// Close returns the candidates nearest word, in the candidates' order:
// those at the smallest edit distance within maxEdits(word), or, when no
// candidate is that close, those that word (3 characters or more) is a
// prefix of. It returns nil when none is close, or when more than three
// are equally so (a hint that names half the list helps nobody).
func Close(word string, candidates []string) []string {
	w := strings.ToLower(word)
	limit := maxEdits(w)
	best, bestD := []string(nil), limit+1
	for _, c := range candidates {
		if c == word {
			continue
		}
		d := Distance(w, strings.ToLower(c))
		switch {
		case d > limit:
		case d < bestD:
			best, bestD = []string{c}, d
		case d == bestD:
			best = append(best, c)
		}
	}
	if best == nil && utf8.RuneCountInString(w) >= 3 {
		for _, c := range candidates {
			if c != word && strings.HasPrefix(strings.ToLower(c), w) {
				best = append(best, c)
			}
		}
	}
	if len(best) > most {
		return nil
	}
	return best
}

// maxEdits is the most edits that leave a name close to w: one for a
// word of up to 4 characters, two for a longer one, none for a single
// character (any other short name is one edit away).
func maxEdits(w string) int {
	switch n := utf8.RuneCountInString(w); {
	case n <= 1:
		return 0
	case n <= 4:
		return 1
	}
	return 2
}

// Hint returns " (did you mean X?)", " (did you mean X or Y?)", ... for
// the names Close finds for word, each written with prefix (such as
// "--" for a flag), or "" when none is close.
func Hint(word string, candidates []string, prefix string) string {
	names := Close(word, candidates)
	if len(names) == 0 {
		return ""
	}
	for i, n := range names {
		names[i] = prefix + n
	}
	list := names[0]
	if len(names) > 1 {
		list = strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	}
	return " (did you mean " + list + "?)"
}

// Distance is the optimal string alignment distance between a and b:
// the fewest insertions, deletions, substitutions of one character and
// transpositions of two adjacent ones that turn a into b (Damerau-
// Levenshtein, no substring edited twice), over runes.
func Distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// Three rows of the table: two back (for transpositions), the
	// previous one and the current one.
	prev2 := make([]int, len(t)+1)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}
