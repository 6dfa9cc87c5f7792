package prep

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// Attribute preprocesses x and gives the inner model's attributions: the
// preprocessing maps each raw feature to one feature the inner model sees,
// so inner feature j's attribution is raw feature j's (a missing value,
// imputed by the mean, is attributed as the mean).
func (m *Model) Attribute(x *mat.Dense) (*learn.Attribution, error) {
	if err := m.Prep.check(x); err != nil {
		return nil, err
	}
	return learn.AttributeInner(m.Inner, m.Prep.Apply(x))
}

// centeredMulti is a linear multi-class model that attributes its
// classes' scores about a reference point (logreg.MultiModel): the
// training means of the features it sees, which the preprocessing knows.
type centeredMulti interface {
	AttributeClassesAround(x *mat.Dense, ref []float64) ([]*learn.Attribution, error)
}

// AttributeClasses preprocesses x and gives the inner model's per-class
// attributions (learn.ClassAttributor), as Model.Attribute does for a
// binary model: inner feature j's attribution is raw feature j's (a
// missing value, imputed by the mean, is attributed as the mean). A
// linear inner model (logreg's multinomial) is attributed about the
// training means of the preprocessed features: the imputation keeps
// the training means, so they are the means preprocessed (0 when
// standardised). An inner model with no attributions gives an error
// wrapping learn.ErrNoAttribution.
func (m *MultiModel) AttributeClasses(x *mat.Dense) ([]*learn.Attribution, error) {
	if err := m.Prep.check(x); err != nil {
		return nil, err
	}
	xt := m.Prep.Apply(x)
	switch in := m.Inner.(type) {
	case centeredMulti:
		ref := m.Prep.Apply(mat.NewDense(1, len(m.Prep.Means), append([]float64(nil), m.Prep.Means...)))
		return in.AttributeClassesAround(xt, ref.RawRowView(0))
	case learn.ClassAttributor:
		return in.AttributeClasses(xt)
	}
	return nil, fmt.Errorf("%w: the multi-class model attributes no class's output", learn.ErrNoAttribution)
}

var _ learn.ClassAttributor = (*MultiModel)(nil)
