package onnx

import (
	"fmt"
	"math"
	"strconv"

	"github.com/aer-go/aer/dataset"
)

// stage is one preprocessing step in front of a model: missing values
// imputed by means, then an optional standardisation.
type stage struct {
	means []float64
	sc    *dataset.Scaler
}

// Features are what a model's part of the graph reads: the graph's features
// (raw, double) behind the preprocessing stages of the wrappers above
// the model. Its tensors are built once, when first asked for, and a
// stage's build on its parent's.
type Features struct {
	raw    Value     // Cast(X, double): [N, F]
	nf     int       // F
	stages []stage   // outermost first
	parent *Features // the input without the last stage; nil for the graph's

	prepared Value // the stages applied: what the model's PositiveProba reads
	kept     Value // the stages' standardisations only, NaN kept (trees)
}

// Len is the number of features.
func (in *Features) Len() int { return in.nf }

// With returns the input behind one more stage: a wrapper's imputation
// of missing values by means (one per feature), then its
// standardisation by sc (nil: none), as dataset.Impute and
// Scaler.Transform compute them. Means or a scaler that do not fit the
// features, or are not finite, give an error.
func (in *Features) With(means []float64, sc *dataset.Scaler) (*Features, error) {
	s := stage{means, sc}
	if len(s.means) != in.nf || (s.sc != nil && (len(s.sc.Mean) != in.nf || len(s.sc.Scale) != in.nf)) {
		return nil, fmt.Errorf("preprocessing of %d means for %d features", len(s.means), in.nf)
	}
	if err := CheckFinite("imputation mean", s.means...); err != nil {
		return nil, err
	}
	if s.sc != nil {
		if err := CheckFinite("standardisation mean", s.sc.Mean...); err != nil {
			return nil, err
		}
		for j, v := range s.sc.Scale {
			if !(v > 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("standardisation scale %d is %v", j, v)
			}
		}
	}
	return &Features{raw: in.raw, nf: in.nf, stages: append(append([]stage(nil), in.stages...), s), parent: in}, nil
}

// Values returns the features the model reads, [N, F] double: each
// stage's imputation, Where(IsNaN(x), means, x), and standardisation,
// (x - mean) / scale, as dataset.Impute and Scaler.Transform compute
// them.
func (in *Features) Values(b *Builder) Value {
	if in.prepared == "" {
		if in.parent == nil {
			in.prepared = in.raw
		} else {
			s := in.stages[len(in.stages)-1]
			x := in.parent.Values(b)
			x = b.Op("Where", []Value{b.Op("IsNaN", []Value{x}), b.Doubles("means", []int64{int64(in.nf)}, s.means), x})
			in.prepared = standardise(b, x, s.sc, in.nf)
		}
	}
	return in.prepared
}

// nanKept returns the features with the stages' standardisations but no
// imputation: a missing value stays NaN, for the trees, whose missing
// direction is set to where the imputed value goes (missing).
func (in *Features) nanKept(b *Builder) Value {
	if in.kept == "" {
		if in.parent == nil {
			in.kept = in.raw
		} else {
			in.kept = standardise(b, in.parent.nanKept(b), in.stages[len(in.stages)-1].sc, in.nf)
		}
	}
	return in.kept
}

func standardise(b *Builder, x Value, sc *dataset.Scaler, nf int) Value {
	if sc == nil {
		return x
	}
	d := []int64{int64(nf)}
	return b.Div(b.Sub(x, b.Doubles("scale_mean", d, sc.Mean)), b.Doubles("scale", d, sc.Scale))
}

// forward maps a raw value of feature j through the stages as the graph
// does (imputing NaN where a stage imputes).
func (in *Features) forward(j int, v float64) float64 {
	for _, s := range in.stages {
		if math.IsNaN(v) {
			v = s.means[j]
		}
		if s.sc != nil {
			v = (v - s.sc.Mean[j]) / s.sc.Scale[j]
		}
	}
	return v
}

// split returns the threshold and rule the graph applies to feature j
// in place of a model's split "left when the value is below t" (or at
// most t when leq) on its preprocessed feature. The graph reads float32
// values, and every raw value x of a float32 bucket (the values that
// round to the same float32 T) reaches the split as the same number, so
// the split can only send a whole bucket one way. The bucket of r, the
// raw value that maps onto t, is sent the way aer sends d, the shortest
// decimal that reads as T (strconv's 'g' of T as a float32): a value
// written in a data file with at most 6 significant digits is the
// shortest decimal of its float32, so it decides as aer decides it on
// the float64 it reads; buckets below go left and buckets above right,
// as aer sends every value in them. Only a value of T's bucket that is
// not d, with t between it and d, decides otherwise.
//
// The threshold returned is T mapped forward through the stages as the
// graph maps its input, and the rule is BRANCH_LEQ when the bucket goes
// left, BRANCH_LT when it goes right.
func (in *Features) split(j int, t float64, leq bool) (float64, bool) {
	if math.IsInf(t, 0) {
		return t, leq
	}
	r := t
	for k := len(in.stages) - 1; k >= 0; k-- {
		if sc := in.stages[k].sc; sc != nil {
			r = r*sc.Scale[j] + sc.Mean[j]
		}
	}
	f := float32(r)
	if math.IsInf(float64(f), 0) {
		return t, leq
	}
	d, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	if err != nil {
		d = float64(f)
	}
	dv := in.forward(j, d)
	left := dv < t || (leq && dv == t)
	return in.forward(j, float64(f)), left
}

// missing returns the value a missing feature j takes through the
// stages, NaN when no stage imputes it (the tree's own missing
// direction then applies).
func (in *Features) missing(j int) float64 { return in.forward(j, math.NaN()) }
