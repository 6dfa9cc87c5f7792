// Package contaminate damages labelled rows on purpose, so that a
// benchmark can measure how a method holds up when the data it learns
// from are dirty: labels flipped and rows replaced by gross outliers.
//
// A Condition is a kind and a level, written "flip:0.1". The kinds:
//
//	flip           a share p of each class's rows gets another class (of two
//	               classes: the other one), so labels flip in both
//	               directions and the class counts keep their sizes on
//	               average
//	flip-minority  a share p of the minority class's rows (the rarest class)
//	               relabelled as the majority class (the most frequent)
//	outliers       a share p of each class's rows replaced by gross
//	               outliers, their labels kept: every feature set to its
//	               mean plus or minus (a random sign per feature) 10 of its
//	               standard deviations, both taken over the rows given
//
// The number of rows changed is exact: round(p * n) of each class's n rows
// (of the minority's, for flip-minority), half rounded away from zero.
// Which rows, which new class and which signs are drawn from one seed
// (internal/rng), and the rows of a class are taken in the order of one
// permutation that depends on the seed and the kind but not the level, so
// the rows contaminated at 0.05 are among those at 0.1 (the levels of a
// kind are nested, which makes their comparison paired).
//
// Level 0 is the clean condition, written "none". Parse reads a
// comma-separated list of conditions, the form aer bench's --contaminate
// takes.
package contaminate
