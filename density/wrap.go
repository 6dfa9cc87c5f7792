package density

import (
	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// Wrap returns s with the density d in front: it scores, saves
// (MarshalBinary is s's own: the density is kept apart, in the model
// file's header) and is found through (learn.Find) as s, and is the
// learn.OODScorer learn.OODOf finds. A decision layer goes in front of
// it. It is a learn.Rewrapper, so a quantised copy keeps the density.
func Wrap(s learn.Scorer, d *Model) learn.Scorer {
	return &wrapped{Wrapped: learn.Wrapped{Inner: s}, d: d}
}

// Of returns the density Wrap put in m's chain, and whether there is
// one.
func Of(m learn.Model) (*Model, bool) {
	if w, ok := learn.As[*wrapped](m); ok {
		return w.d, true
	}
	return nil, false
}

type wrapped struct {
	learn.Wrapped
	d *Model
}

func (w *wrapped) NumClasses() int { return 2 }

func (w *wrapped) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return w.Inner.PredictProba(x, dst)
}

func (w *wrapped) MarshalBinary() ([]byte, error) { return w.Inner.MarshalBinary() }

func (w *wrapped) OODScore(x *mat.Dense, dst []float64) ([]float64, error) {
	return w.d.OODScore(x, dst)
}

func (w *wrapped) OODThreshold() (float64, bool) { return w.d.OODThreshold() }

func (w *wrapped) Rewrap(inner learn.Scorer) learn.Scorer { return Wrap(inner, w.d) }
