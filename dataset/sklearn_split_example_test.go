package dataset_test

import (
	"fmt"

	"github.com/aer-go/aer/dataset"
)

// The rows below are the ones scikit-learn 1.2.1 returns for
//
//	train, rest = train_test_split(np.arange(15), test_size=0.4, stratify=y, random_state=0)
//	valid, test = train_test_split(rest, test_size=0.5, stratify=y[rest], random_state=0)
func ExampleAnchorSplit() {
	y := []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1}
	train, valid, test, err := dataset.AnchorSplit(y, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("train:", train)
	fmt.Println("valid:", valid)
	fmt.Println("test: ", test)
	// Output:
	// train: [10 11 9 6 2 8 4 1 12]
	// valid: [3 13 7]
	// test:  [14 5 0]
}

func ExampleSklearnTrainTestSplit() {
	y := []int{0, 1, 0, 0, 1, 0, 1}
	train, test, err := dataset.SklearnTrainTestSplit(y, 0.4, 42)
	fmt.Println(train, test, err)

	_, _, err = dataset.SklearnTrainTestSplit([]int{0, 0, 0, 1}, 0.5, 0)
	fmt.Println(err)
	// Output:
	// [5 1 4 2] [6 0 3] <nil>
	// sklearn stratified split: class 1 has 1 row(s), need at least 2
}
