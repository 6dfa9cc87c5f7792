package lightgbm_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/aer-go/aer/interop/lightgbm"
)

// Read a LightGBM text model (Booster.save_model) and convert it to a
// boosted-tree model of package boost: one tree whose split treats zero
// as missing and sends it right (decision_type 4: missing type Zero,
// default right), although zero is below the threshold.
func ExampleDecode() {
	model := `tree
version=v4
num_class=1
num_tree_per_iteration=1
label_index=0
max_feature_idx=0
objective=binary sigmoid:1
feature_names=x
feature_infos=[-5:5]

Tree=0
num_leaves=2
num_cat=0
split_feature=0
split_gain=3.5
threshold=0.5
decision_type=4
left_child=-1
right_child=-2
leaf_value=-0.75 1.25
leaf_count=40 60
internal_value=0
internal_count=100
is_linear=0
shrinkage=1

end of trees
`
	m, err := lightgbm.Read(strings.NewReader(model))
	if err != nil {
		log.Fatal(err)
	}
	bm, err := m.Boost()
	if err != nil {
		log.Fatal(err)
	}
	for _, x := range []float64{-2, 0, 0.3, 2} {
		fmt.Printf("x = %v: margin %.2f, probability %.4f\n", x, bm.PredictRowMargin([]float64{x}), bm.PredictRow([]float64{x}))
	}
	// Output:
	// x = -2: margin -0.75, probability 0.3208
	// x = 0: margin 1.25, probability 0.7773
	// x = 0.3: margin -0.75, probability 0.3208
	// x = 2: margin 1.25, probability 0.7773
}
