package resample

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/neighbors"
)

// SMOTE is the Synthetic Minority Over-sampling TEchnique (Chawla et al.
// 2002) as imbalanced-learn 0.10's SMOTE: each synthetic row picks a
// minority row x uniformly, one of its KNeighbors nearest minority rows z
// uniformly and a gap u uniform in [0, 1), and is x + u·(z - x). Rows are
// made until the minority has floor(Ratio · m_maj) rows (balanced by
// default). The result is every row of the data, in order, then the
// synthetic rows.
//
// Neighbours are exact Euclidean ones among the minority rows (package
// neighbors), a row never its own neighbour (an exact duplicate is one, at
// distance 0); ties go to the smaller row number. Distances use the
// features as given: standardise them first when their scales differ.
//
// Missing values are refused: a minority row with a missing value is an
// error naming the row and feature (impute first; the smote-gbdt method
// imputes training means in front). Majority rows are copied as they are.
//
// Weights: a synthetic row weighs the mean of its two parents' weights
// (1 when the data has none, so unweighted data stays unweighted); counts
// are of rows, as in imbalanced-learn.
type SMOTE struct {
	// KNeighbors is the number of nearest minority rows a synthetic row
	// may be drawn towards; 0 means 5.
	KNeighbors int
	// Ratio is the minority to majority row ratio after over-sampling,
	// in (0, 1]; 0 means 1, balanced classes (imbalanced-learn's "auto").
	Ratio float64
}

var smoteParams = learn.ParamTable[SMOTE]{
	learn.Int("k_neighbors", "nearest minority rows a synthetic row may be drawn towards", 1, func(s *SMOTE) *int { return &s.KNeighbors }),
	ratioParam("minority to majority row ratio after over-sampling (1 = balanced)", func(s *SMOTE) *float64 { return &s.Ratio }),
}

func (s SMOTE) resolved() SMOTE {
	if s.KNeighbors == 0 {
		s.KNeighbors = 5
	}
	if s.Ratio == 0 {
		s.Ratio = 1
	}
	return s
}

// Name returns "smote".
func (s *SMOTE) Name() string { return "smote" }

// Set sets k_neighbors or sampling_strategy.
func (s *SMOTE) Set(key, value string) error { return smoteParams.Set(s, key, value) }

// Params lists k_neighbors and sampling_strategy.
func (s *SMOTE) Params() []learn.Param {
	cur, def := s.resolved(), SMOTE{}.resolved()
	return smoteParams.List(&cur, &def)
}

// Resample returns d's rows followed by the synthetic minority rows.
func (s *SMOTE) Resample(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, error) {
	out, _, err := s.resample(ctx, s.Name(), d, env, false)
	return out, err
}

// Trace resamples as Resample does and says where each row comes from:
// d's rows, then the synthetic ones with their two parents and gap.
func (s *SMOTE) Trace(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, []Origin, error) {
	return s.resample(ctx, s.Name(), d, env, true)
}

// resample over-samples d; with trace, it says where each row comes from
// (nil origins without).
func (s *SMOTE) resample(ctx context.Context, name string, d *learn.Data, env learn.Env, trace bool) (*learn.Data, []Origin, error) {
	if err := check(name, d); err != nil {
		return nil, nil, err
	}
	r := s.resolved()
	if r.KNeighbors < 1 || !(r.Ratio > 0 && r.Ratio <= 1) {
		return nil, nil, fmt.Errorf("%s: %w: k_neighbors %d or sampling_strategy %v out of range", name, learn.ErrParam, r.KNeighbors, r.Ratio)
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, nil, err
	}
	minLabel, minority, majority := classes(d.Y)
	// imbalanced-learn: int(n_majority * ratio - n_minority).
	nNew := int(float64(len(majority))*r.Ratio - float64(len(minority)))
	if nNew < 0 {
		return nil, nil, fmt.Errorf("%s: %w: sampling_strategy %v asks for %d minority rows and there are already %d; raise it",
			name, learn.ErrData, r.Ratio, len(minority)+nNew, len(minority))
	}
	n, c := d.X.Dims()
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	var origins []Origin
	if trace {
		origins = append(keptOrigins(all), make([]Origin, 0, nNew)...)
	}
	if nNew == 0 {
		return d.Subset(all), origins, nil
	}
	k := r.KNeighbors
	if k > len(minority)-1 {
		return nil, nil, fmt.Errorf("%s: %w: k_neighbors=%d needs at least %d minority rows, the data has %d", name, learn.ErrData, k, k+1, len(minority))
	}
	if err := checkFinite(name, d, minority); err != nil {
		return nil, nil, err
	}
	ix, err := neighbors.NewRows(d.X, minority)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	nn, err := ix.SearchSelf(nil, k, &neighbors.Options{Workers: env.Threads()})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, nil, err
	}

	x := mat.NewDense(n+nNew, c, nil)
	dst, src := x.RawMatrix(), d.X.RawMatrix()
	for i := range n {
		copy(dst.Data[i*c:(i+1)*c], src.Data[i*src.Stride:i*src.Stride+c])
	}
	y := make([]int, n+nNew)
	copy(y, d.Y)
	var w []float64
	if d.W != nil {
		w = make([]float64, n+nNew)
		copy(w, d.W)
	}
	draw := rng.New(env.Seed)
	for s := range nNew {
		p := draw.IntN(len(minority))
		q := nn.Index[p*k+draw.IntN(k)]
		gap := draw.Float64()
		a, b := minority[p], minority[q]
		xa := src.Data[a*src.Stride : a*src.Stride+c]
		xb := src.Data[b*src.Stride : b*src.Stride+c]
		row := dst.Data[(n+s)*c : (n+s+1)*c]
		for j := range row {
			row[j] = xa[j] + gap*(xb[j]-xa[j])
		}
		if trace {
			origins = append(origins, Origin{Row: -1, A: a, B: b, Gap: gap})
		}
		y[n+s] = minLabel
		if w != nil {
			w[n+s] = (d.W[a] + d.W[b]) / 2
		}
	}
	return &learn.Data{X: x, Y: y, W: w, Features: d.Features}, origins, nil
}

// SMOTETomek is SMOTE, then Tomek-link cleaning of the result, as
// imbalanced-learn's SMOTETomek: by default both ends of every link go
// (its TomekLinks(sampling_strategy="all")).
type SMOTETomek struct {
	SMOTE SMOTE
	// TomekStrategy is which ends of the links go: "all" (or empty) both,
	// "auto" the majority end only.
	TomekStrategy string
}

var smoteTomekParams = learn.ParamTable[SMOTETomek]{
	learn.Int("k_neighbors", "nearest minority rows a synthetic row may be drawn towards", 1, func(s *SMOTETomek) *int { return &s.SMOTE.KNeighbors }),
	ratioParam("minority to majority row ratio after over-sampling (1 = balanced)", func(s *SMOTETomek) *float64 { return &s.SMOTE.Ratio }),
	learn.Enum("tomek_strategy", "ends of the Tomek links removed after SMOTE: all = both, auto = the majority end", []string{"all", "auto"},
		func(s *SMOTETomek) *string { return &s.TomekStrategy }),
}

func (s SMOTETomek) resolved() SMOTETomek {
	s.SMOTE = s.SMOTE.resolved()
	if s.TomekStrategy == "" {
		s.TomekStrategy = "all"
	}
	return s
}

// Name returns "smote-tomek".
func (s *SMOTETomek) Name() string { return "smote-tomek" }

// Set sets k_neighbors, sampling_strategy or tomek_strategy.
func (s *SMOTETomek) Set(key, value string) error { return smoteTomekParams.Set(s, key, value) }

// Params lists k_neighbors, sampling_strategy and tomek_strategy.
func (s *SMOTETomek) Params() []learn.Param {
	cur, def := s.resolved(), SMOTETomek{}.resolved()
	return smoteTomekParams.List(&cur, &def)
}

// Resample over-samples d with SMOTE, then removes Tomek links.
func (s *SMOTETomek) Resample(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, error) {
	out, _, err := s.resample(ctx, d, env, false)
	return out, err
}

// Trace resamples as Resample does and says where each row comes from:
// the rows of d and the synthetic rows that no Tomek link removed.
func (s *SMOTETomek) Trace(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, []Origin, error) {
	return s.resample(ctx, d, env, true)
}

// resample is Resample, and with trace Trace.
func (s *SMOTETomek) resample(ctx context.Context, d *learn.Data, env learn.Env, trace bool) (*learn.Data, []Origin, error) {
	r := s.resolved()
	over, origins, err := r.SMOTE.resample(ctx, s.Name(), d, env, trace)
	if err != nil {
		return nil, nil, err
	}
	t := Tomek{Strategy: r.TomekStrategy}
	out, kept, err := t.resample(ctx, s.Name(), over, env)
	if err != nil {
		return nil, nil, err
	}
	return out, learn.Pick(origins, kept), nil
}
