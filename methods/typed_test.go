package methods_test

import (
	"reflect"
	"testing"

	"github.com/aer-go/aer/adaptive"
	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/svm"
	"github.com/aer-go/aer/tree"
)

// TestTypedConstructors: a method built from typed settings is the
// registered method with the same parameters set from text.
func TestTypedConstructors(t *testing.T) {
	for _, tc := range []struct {
		typed  learn.Method
		name   string
		params [][2]string
	}{
		{boost.New(boost.Settings{NEstimators: 50, MaxDepth: 3, Eta: 0.1}), "gbdt", [][2]string{{"n_estimators", "50"}, {"max_depth", "3"}, {"eta", "0.1"}}},
		{boost.New(boost.Settings{}), "gbdt", nil},
		{logreg.New(logreg.Settings{C: 0.5, MaxIter: 300}), "logreg", [][2]string{{"C", "0.5"}, {"max_iter", "300"}}},
		{svm.New(svm.Settings{C: 2}), "svm", [][2]string{{"C", "2"}}},
		{tree.New(tree.Settings{ClassWeight: tree.Balanced, MaxDepth: 4}), "tree", [][2]string{{"max_depth", "4"}}},
		{adaptive.New(adaptive.Config{Preset: adaptive.PresetPaper, Components: []int{2, 3}, Member: logreg.New(logreg.Settings{C: 0.5})}), "aer",
			[][2]string{{"preset", "paper"}, {"components", "2,3"}, {"member", "logreg"}, {"member.C", "0.5"}, {"grid", "default"}}},
	} {
		m, err := learn.New(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		for _, kv := range tc.params {
			if err := m.Set(kv[0], kv[1]); err != nil {
				t.Fatal(err)
			}
		}
		if tc.typed.Name() != tc.name {
			t.Errorf("typed %s is named %s", tc.name, tc.typed.Name())
		}
		if got, want := learn.ParamMap(tc.typed.Params()), learn.ParamMap(m.Params()); !reflect.DeepEqual(got, want) {
			t.Errorf("%s %v: typed params\n%v\nwant\n%v", tc.name, tc.params, got, want)
		}
	}
}
