package synth_test

import (
	"fmt"
	"log"

	"github.com/aer-go/aer/synth"
)

// The synthetic task of the AER paper: 8000 rows, 79 majority rows per
// minority row, 10 Gaussian clusters per class in 10 informative
// dimensions, 20 features in all.
func ExampleGenerate() {
	s := &synth.Settings{
		Samples:     8000,
		Ratio:       79,
		Clusters:    10,
		Features:    20,
		Informative: 10,
		FlipY:       synth.None, // keep the class sizes exact
	}
	sizes, err := s.ClassSizes()
	if err != nil {
		log.Fatal(err)
	}
	d, err := synth.Generate(s, 0)
	if err != nil {
		log.Fatal(err)
	}
	rows, cols := d.X.Dims()
	minority := 0
	for _, y := range d.Y {
		minority += y
	}
	fmt.Printf("%d rows x %d features (%s ... %s)\n", rows, cols, d.Features[0], d.Features[cols-1])
	fmt.Printf("class sizes %v, %d rows labelled 1\n", sizes, minority)
	fmt.Printf("%d informative, %d redundant, %d noise columns\n",
		len(d.Informative), len(d.Redundant), len(d.Noise))
	// Output:
	// 8000 rows x 20 features (x0 ... x19)
	// class sizes [7900 100], 100 rows labelled 1
	// 10 informative, 2 redundant, 8 noise columns
}

func ExampleSettings_ClassSizes() {
	for _, s := range []*synth.Settings{
		{Samples: 8000, Ratio: 79, Clusters: 10, Informative: 10},
		{Samples: 777, Ratio: 79, Clusters: 10, Informative: 10},
		{Samples: 8000, Weights: []float64{0.9}, Clusters: 1},
	} {
		sizes, err := s.ClassSizes()
		fmt.Println(sizes, err)
	}
	// Output:
	// [7900 100] <nil>
	// [769 8] <nil>
	// [7201 799] <nil>
}
