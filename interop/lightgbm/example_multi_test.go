package lightgbm_test

import (
	"fmt"
	"log"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/interop/lightgbm"
)

// Read a LightGBM multiclass model (3 classes, one iteration: tree i is
// class i's) and convert it to a multi-class boosted-tree model: its
// class probabilities are the softmax of the classes' raw scores.
func ExampleModel_BoostMulti() {
	var b strings.Builder
	b.WriteString("tree\nversion=v4\nnum_class=3\nnum_tree_per_iteration=3\nlabel_index=0\nmax_feature_idx=0\n" +
		"objective=multiclass num_class:3\nfeature_names=x\nfeature_infos=[-5:5]\n\n")
	for k, leaves := range []string{"1 -1", "0 0", "-1 1"} {
		fmt.Fprintf(&b, "Tree=%d\nnum_leaves=2\nnum_cat=0\nsplit_feature=0\nsplit_gain=1\nthreshold=0\ndecision_type=2\n"+
			"left_child=-1\nright_child=-2\nleaf_value=%s\nleaf_count=50 50\ninternal_value=0\ninternal_count=100\nshrinkage=1\n\n", k, leaves)
	}
	b.WriteString("end of trees\n")
	m, err := lightgbm.Read(strings.NewReader(b.String()))
	if err != nil {
		log.Fatal(err)
	}
	mm, err := m.BoostMulti()
	if err != nil {
		log.Fatal(err)
	}
	p, err := mm.PredictProba(mat.NewDense(2, 1, []float64{-1, 1}), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("x = -1: %.4f\nx = 1: %.4f\n", p[:3], p[3:])
	// Output:
	// x = -1: [0.6652 0.2447 0.0900]
	// x = 1: [0.0900 0.2447 0.6652]
}
