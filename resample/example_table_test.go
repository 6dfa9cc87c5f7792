package resample_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/resample"
)

// Table over-samples a whole table: the id column and the categorical
// column ride along, synthetic rows get new ids and their nearer
// parent's category (smote-1 lies between g and h, nearer h).
func ExampleTable() {
	csv := `id,x,clinic,label
a,0,east,no
b,1,west,no
c,2,east,no
d,3,west,no
e,4,east,no
f,10,west,yes
g,11,west,yes
h,12,east,yes
`
	d, err := dataset.Read(strings.NewReader(csv), "t.csv", dataset.Options{ID: "id", AutoCategorical: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := resample.Table(context.Background(), &resample.SMOTE{KNeighbors: 2}, d, learn.Env{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := dataset.WriteCSV(os.Stdout, out); err != nil {
		fmt.Println(err)
	}
	// Output:
	// id,x,clinic,label
	// a,0,east,no
	// b,1,west,no
	// c,2,east,no
	// d,3,west,no
	// e,4,east,no
	// f,10,west,yes
	// g,11,west,yes
	// h,12,east,yes
	// smote-1,11.869207970813957,east,yes
	// smote-2,10.916595290420007,west,yes
}
