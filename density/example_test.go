package density_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/density"
)

// Fit a density to training rows, then score a row like them and one far
// from them: only the far one lies above the threshold.
func Example() {
	train := blobs(2000, 3, 1, false) // two clusters, at 0 and at 6
	d, err := density.Fit(context.Background(), train, nil, &density.Settings{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	rows := mat.NewDense(2, 3, []float64{6, 6, 6, 40, -40, 0})
	scores, err := d.OODScore(rows, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, s := range scores {
		fmt.Printf("row %d flagged: %v\n", i+1, s > d.Threshold)
	}
	fmt.Println("threshold set on", d.ThresholdOn, "rows")
	// Output:
	// row 1 flagged: false
	// row 2 flagged: true
	// threshold set on training rows
}
