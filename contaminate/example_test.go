package contaminate_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/contaminate"
)

func Example() {
	conds, err := contaminate.Parse("none,flip-minority:0.25:0.5")
	if err != nil {
		panic(err)
	}
	// 12 rows, the last 4 of the minority class 1.
	x := mat.NewDense(12, 2, nil)
	y := []int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}
	for _, c := range conds {
		yc := append([]int(nil), y...)
		changed, err := contaminate.Apply(c, mat.DenseCopyOf(x), yc, 1)
		if err != nil {
			panic(err)
		}
		fmt.Println(c, len(changed), "rows relabelled")
	}
	// Output:
	// none 0 rows relabelled
	// flip-minority:0.25 1 rows relabelled
	// flip-minority:0.5 2 rows relabelled
}
