// Package par runs independent tasks on a bounded number of goroutines:
// the one worker loop the packages with parallel passes share (boost,
// logreg, resample, ensemble). Tasks write their own results, so what they
// compute does not depend on the number of workers.
package par
