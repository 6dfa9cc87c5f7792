package methods

import (
	"github.com/aer-go/aer/adaboost"
	"github.com/aer-go/aer/adaptive"
	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/forest"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/mlp"
	"github.com/aer-go/aer/svm"
	"github.com/aer-go/aer/tree"
)

func init() {
	learn.Register(boost.NewMethod)
	learn.Register(adaptive.NewMethod)
	learn.Register(adaptive.NewDynamicEnsemble)
	learn.Register(gbdtTuned)
	learn.Register(gbdtFocal)
	learn.Register(gbdtLeafwise)
	learn.Register(mlp.NewStandardized)
	learn.Register(rusGBDT)
	learn.Register(smoteGBDT)
	learn.Register(logreg.NewStandardized)
	learn.Register(svm.NewStandardized)
	learn.Register(tree.NewMethod)
	learn.Register(forest.NewBalancedBagging)
	learn.Register(forest.NewBalancedRF)
	learn.Register(adaboost.NewRUSBoost)
	learn.Register(adaboost.NewEasyEnsemble)
}
