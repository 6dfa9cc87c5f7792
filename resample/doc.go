// Package resample provides resampling of imbalanced data: the samplers of
// imbalanced-learn (random under-sampling, SMOTE, Tomek-link cleaning and
// SMOTE followed by Tomek cleaning) behind one Sampler interface, a method
// that fits any learn.Method on resampled training rows (Resampled), and
// the resampling step of AER (Algorithm 1 of the paper, section 2 of
// NOTES.md): Tomek links and the per-component global and local subsets.
//
// Labels follow the rest of aer: 1 = minority ("key"), 0 = majority. The
// samplers, like imbalanced-learn, decide the minority from the counts:
// the class with fewer rows (label 1 on a tie).
//
// # Several classes
//
// The samplers also resample labels 0..K-1 of K classes, with
// imbalanced-learn's sampling_strategy in any of its forms (ParseStrategy):
// auto, majority, not minority, not majority, all, minority, per-class
// row counts "CLASS:N,CLASS:N", a list of classes "CLASS,CLASS" for
// cleaning, and the float ratio, which is for two classes only (an error
// on more, as in imbalanced-learn). Strategy.Targets resolves a strategy
// on labels as imbalanced-learn 0.10's check_sampling_strategy does for
// over-sampling, under-sampling and cleaning (a form's meaning depends on
// the type; the minority and majority are the classes with the fewest and
// the most rows, the smaller label on a tie); testdata holds its answers
// for every form on glass and hand-made tables, with the script that
// wrote them. RUS keeps each named class's target count of rows, drawn
// from a stream of the class's own (rng.Derive(seed, class)); SMOTE makes
// each named class's rows from its own rows and their neighbours within
// the class, classes in increasing order after the input rows; Tomek
// removes the ends, of the named classes, of the links between rows of
// different labels that are each other's nearest neighbour (imbalanced-
// learn's is_tomek), auto being not minority.
//
// The two-class rule is kept, bit for bit, where it applies: labels 0 and
// 1 with a ratio, auto, or (for cleaning) all, use the code above, so
// results on two classes do not change. One difference from
// imbalanced-learn follows: on two classes of equal size, Tomek's auto
// removes the end labelled 0 (label 1 is the minority on a tie), where
// imbalanced-learn, whose minority is the first class, removes label 1's.
// The defaults (ratio 1; Tomek's unset strategy, auto) are two-class
// rules: labels beyond 0 and 1 are an error until sampling_strategy is
// set, to auto for instance.
//
// # Samplers
//
// RUS, SMOTE, Tomek and SMOTETomek implement Sampler; New returns one by
// name (rus, smote, tomek, smote-tomek) with imbalanced-learn 0.10's
// defaults. A sampler keeps rows in the order of its input and appends the
// rows it makes up; kept rows keep their labels and weights, and a SMOTE
// row weighs the mean of its two parents' weights (so unweighted data stays
// unweighted). Classes are balanced by counting rows, not weights, as
// imbalanced-learn does. SMOTE and Tomek cleaning measure Euclidean
// distances on the features as given and refuse missing values with an
// error naming the row: impute (and standardise) first.
//
// Resampled(name, describe, sampler, inner) is a learn.Method: it
// resamples the training rows (never the validation rows) and fits inner
// on them; its parameters are the sampler's and inner's.
//
// # Tomek links
//
// Rows i and j of a set S form a Tomek link when their labels differ and
// each is the other's nearest neighbour within S (Euclidean). A row's
// nearest neighbour is the closest other row of S, found by exact search
// (package neighbors): the row itself is excluded by index, an exact
// duplicate is an ordinary neighbour at distance 0, and ties go to the
// smaller row number. So a lone minority row and a majority row at the
// same point form a link; of several rows tied for nearest, the one with
// the smallest row number is the neighbour.
//
// imbalanced-learn's TomekLinks finds the same links on data without
// duplicate points. It takes the second column of a 2-NN query of the data
// on itself, which assumes a row is its own first neighbour; with exact
// duplicates that column may be the row itself, so links between
// duplicate points of different labels are missed or found depending on
// the neighbour order scikit-learn returns. Excluding self by index is
// deterministic and follows the definition.
//
// TomekOptions.Strict applies the paper's condition (Eq. 6) literally,
// with strict inequalities: a pair only counts when neither end has a
// second row tied with its partner for nearest.
//
// Finding the links needs no all-pairs search: every link has an end in
// the smaller class of S. TomekLinks finds the nearest neighbour of each
// row of that class, then only for the distinct partners of the other
// class, so the cost is about 2·m_k·|S| distance evaluations rather than
// |S|². A partner's search stops at the first row certainly nearer than
// the row that chose it (neighbors.SearchSelfWithin): most partners are
// not mutual, and on issue 14's data the second search costs about a
// fifth of the first.
//
// # AER subsets
//
// Subsets ranks the majority rows under each mixture component by a score
// supplied by the caller (log N(x | mu_l, Sigma_l) or a responsibility;
// higher is more representative) and builds, per component l, a global
// subset (top floor(m_n/L) majority rows, all minority rows, the majority
// end of every Tomek link inside removed) and a local subset (top m_k
// majority rows, floor(0.5·m_k) further majority rows drawn at random
// without replacement, all minority rows). The global subsets share
// their minority rows and overlap in their majority rows, so the first
// Tomek search runs once over their union: each minority row's 16 nearest
// rows of the union, of which the first in a subset are its nearest there
// (the subset's own search answers the rows with too few of them); on
// issue 14's data the union holds 0.6 of the subsets' rows and about a
// tenth of the rows fall back. Components run in parallel;
// component l draws from rng.Derive(seed, l), so results do not depend on
// the worker count.
package resample
