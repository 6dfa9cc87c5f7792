package ensemble

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/par"
)

// Space chooses where the members' outputs are combined.
type Space int

const (
	// ProbabilitySpace combines probabilities: F(x) = w.f(x), the paper's
	// Eq. 10, with the score w*.f(x) of Eq. 20.
	ProbabilitySpace Space = iota
	// LogitSpace combines log-odds: F(x) = sigmoid(w.z(x)) with
	// z_j = logit(f_j) and f_j clipped to [eps, 1-eps] first, so that
	// |z_j| <= logit(1-eps) (16.1 for the default eps). It is the
	// combination of the Python reference's "AER+" (anchors/aerplus.md): a
	// confident member can outvote several unsure ones. The static weights
	// are fitted with the same projected descent on sigmoid(w.z)'s
	// cross-entropy, whose gradient is mean((sigmoid(w.z_i) - y_i) z_i).
	LogitSpace
)

var spaceNames = []string{"probability", "logit"}

// String returns the space's name ("probability", "logit"), or "Space(N)"
// for a value out of range.
func (s Space) String() string { return name(spaceNames, int(s), "Space") }

// MarshalText encodes s by name ("probability", "logit").
func (s Space) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText decodes a name written by MarshalText.
func (s *Space) UnmarshalText(b []byte) error { return parse(s, spaceNames, b, "space") }

func (s Space) valid() bool { return s == ProbabilitySpace || s == LogitSpace }

// logit is log(p/(1-p)) of p clipped to [eps, 1-eps].
func logit(p, eps float64) float64 {
	p = clip(p, eps)
	return math.Log(p / (1 - p))
}

// sigmoid is 1/(1+exp(-s)), written so that neither branch overflows.
func sigmoid(s float64) float64 {
	if s >= 0 {
		return 1 / (1 + math.Exp(-s))
	}
	e := math.Exp(s)
	return e / (1 + e)
}

// softplus is log(1 + exp(s)) without overflow.
func softplus(s float64) float64 {
	if s > 0 {
		return s + math.Log1p(math.Exp(-s))
	}
	return math.Log1p(math.Exp(s))
}

// Logits is the logit copy of members' outputs that FitStatic and Tune
// build in LogitSpace: a caller that runs both on the same outputs builds
// it once (NewLogits) and hands it to both (StaticSettings.Logits,
// TuneSettings.Logits) and to Combiner.ScoreShared, which saves a copy as
// large as the outputs (592 MB for 2M validation rows of 37 members) and
// its logarithms each time. The outputs must not change while it is in
// use.
type Logits struct {
	f   *mat.Dense
	eps float64
	z   *mat.Dense
}

// NewLogits computes logit(f) with every output clipped to [eps, 1-eps]
// (eps 0 means DefaultEps) on up to workers goroutines.
func NewLogits(f *mat.Dense, eps float64, workers int) *Logits {
	if eps == 0 {
		eps = DefaultEps
	}
	return &Logits{f: f, eps: eps, z: combined(f, LogitSpace, eps, workers)}
}

// of returns the copy when it is that of f at eps, nil otherwise.
func (l *Logits) of(f *mat.Dense, eps float64) *mat.Dense {
	if l == nil || l.f != f || l.eps != eps {
		return nil
	}
	return l.z
}

// combined returns the matrix whose rows are dotted with weights: f itself
// in probability space, a copy of logit(f) in logit space.
func combined(f *mat.Dense, space Space, eps float64, workers int) *mat.Dense {
	if space != LogitSpace {
		return f
	}
	r, c := f.Dims()
	if r == 0 {
		return f
	}
	z := mat.NewDense(r, c, nil)
	// Blocks of rows on up to workers goroutines: each value is its own,
	// so the copy does not depend on them.
	const block = 1 << 13
	src, dst := f.RawMatrix(), z.RawMatrix()
	par.For(workers, (r+block-1)/block, func(b int) {
		for i := b * block; i < min(r, (b+1)*block); i++ {
			out := dst.Data[i*dst.Stride : i*dst.Stride+c]
			for j, v := range src.Data[i*src.Stride : i*src.Stride+c] {
				out[j] = logit(v, eps)
			}
		}
	})
	return z
}

// finish maps a combined value to a score in [0, 1]: a clamp against
// rounding in probability space, the sigmoid in logit space.
func finish(space Space, s float64) float64 {
	if space == LogitSpace {
		return sigmoid(s)
	}
	return math.Min(1, math.Max(0, s))
}
