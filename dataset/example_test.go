package dataset_test

import (
	"fmt"
	"strings"

	"github.com/aer-go/aer/dataset"
)

func Example() {
	csv := `weight,height,label
1.5,NA,healthy
2.5,3.0,sick
3.5,4.0,healthy
0.5,1.0,sick
4.5,5.0,healthy
`
	d, err := dataset.Read(strings.NewReader(csv), "patients.csv", dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	n := d.ClassCounts()
	fmt.Println("features:", d.Features)
	fmt.Printf("positive class %q: %d of %d rows\n", d.Classes[1], n[1], n[0]+n[1])
	fmt.Println("missing cells:", d.Missing())

	_, err = dataset.Read(strings.NewReader("a,label\n1,0\nx,1\n"), "bad.csv", dataset.Options{})
	fmt.Println(err)
	// Output:
	// features: [weight height]
	// positive class "sick": 2 of 5 rows
	// missing cells: 1
	// bad.csv: line 3, column "a": "x": not a number
}

func ExampleStratifiedSplit() {
	y := []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1}
	parts, _ := dataset.StratifiedSplit(y, []float64{3, 1, 1}, 0)
	for k, name := range []string{"train", "valid", "test"} {
		pos := 0
		for _, i := range parts[k] {
			pos += y[i]
		}
		fmt.Printf("%s: %d rows, %d positive\n", name, len(parts[k]), pos)
	}
	// Output:
	// train: 9 rows, 3 positive
	// valid: 3 rows, 1 positive
	// test: 3 rows, 1 positive
}

// A positive class chosen by hand that is the majority is refused.
func ExampleDataset_CheckMinorityPositive() {
	d, _ := dataset.Read(strings.NewReader("x,y\n1,ok\n2,ok\n3,ok\n4,fraud\n"), "t.csv", dataset.Options{Positive: "ok"})
	fmt.Println(d.CheckMinorityPositive("t.csv"))
	// Output:
	// t.csv: the positive class is the majority: "ok" has 3 rows, "fraud" only 1
}
