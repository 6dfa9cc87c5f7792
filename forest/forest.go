package forest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/tree"
)

// Settings configure a balanced forest. The zero value is 100 trees on
// bootstraps, under-sampled without replacement, with the tree's zero
// Settings.
type Settings struct {
	// NEstimators is the number of trees; 0 means 100.
	NEstimators int
	// NoBootstrap turns the bootstrap off: each tree sees the balanced
	// sample itself.
	NoBootstrap bool
	// Replacement under-samples the majority class with replacement.
	Replacement bool
	// Tree are the settings of every tree.
	Tree tree.Settings
}

// Resolved returns the settings with every default filled in.
func (s Settings) Resolved() Settings {
	if s.NEstimators == 0 {
		s.NEstimators = 100
	}
	s.Tree = s.Tree.Resolved()
	return s
}

// Check validates the settings.
func (s Settings) Check() error {
	if s.NEstimators < 0 || s.NEstimators > learn.MaxTrees {
		return fmt.Errorf("%w: n_estimators %d is not in [0, %d]", learn.ErrParam, s.NEstimators, learn.MaxTrees)
	}
	return s.Tree.Check()
}

// Forest is a fitted forest: the mean of its trees' probabilities.
type Forest struct {
	NumFeatures int
	Trees       []*tree.Tree
}

// Fit grows a forest on train: tree k draws its sample and its features
// from the stream k of seed, so the forest does not depend on workers
// (goroutines growing trees at once; 0: all cores). progress, when not
// nil, is called after each tree from the calling goroutine.
func Fit(ctx context.Context, train *learn.Data, scheme Scheme, s Settings, seed uint64, workers int, progress func(done, total int)) (*Forest, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	s = s.Resolved()
	if err := train.Check("training data"); err != nil {
		return nil, err
	}
	if _, err := s.Tree.MaxFeaturesOf(train.Cols()); err != nil {
		return nil, fmt.Errorf("%w: max_features: %v", learn.ErrParam, err)
	}
	workers = learn.Env{Workers: workers}.Threads()
	g, err := tree.NewGrower(ctx, train.X, train.Y, workers)
	if err != nil {
		return nil, err
	}
	return grow(ctx, g, train, s, seed, workers, progress, func() func(*rand.Rand) tree.Sample {
		d := newDrawer(train.Y, train.W, 0, !s.NoBootstrap, s.Replacement)
		return func(r *rand.Rand) tree.Sample { return d.draw(scheme, r) }
	})
}

// grow grows the forest's trees with g: tree j draws its sample (by a
// function newDraw makes, one per goroutine) and its features from the
// stream j of seed, so the forest does not depend on workers.
func grow(ctx context.Context, g *tree.Grower, train *learn.Data, s Settings, seed uint64, workers int, progress func(done, total int), newDraw func() func(*rand.Rand) tree.Sample) (*Forest, error) {
	f := &Forest{NumFeatures: train.Cols(), Trees: make([]*tree.Tree, s.NEstimators)}
	_, err := learn.ForEach(ctx, workers, s.NEstimators, func() func(context.Context, int) error {
		draw := newDraw()
		return func(ctx context.Context, j int) error {
			r := rng.Derive(seed, uint64(j))
			var err error
			f.Trees[j], err = g.Grow(ctx, draw(r), s.Tree, r)
			return err
		}
	}, progress)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// PredictRow returns the mean of the trees' probabilities for one row.
func (f *Forest) PredictRow(row []float64) float64 {
	s := 0.0
	for _, t := range f.Trees {
		s += t.PredictRow(row)
	}
	return s / float64(len(f.Trees))
}

// Predict writes the probabilities of the rows of x into dst (allocated
// when too short) and returns it.
func (f *Forest) Predict(x *mat.Dense, dst []float64) []float64 {
	n, c := x.Dims()
	if len(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	raw := x.RawMatrix()
	for i := range n {
		dst[i] = f.PredictRow(raw.Data[i*raw.Stride : i*raw.Stride+c])
	}
	return dst
}

// Importance returns scikit-learn's feature_importances_ of a forest: the
// mean over trees of each tree's normalised impurity decrease,
// normalised.
func (f *Forest) Importance() []float64 {
	imp := make([]float64, f.NumFeatures)
	one := make([]float64, f.NumFeatures)
	for _, t := range f.Trees {
		clear(one)
		t.Importance(one)
		tree.Normalize(one)
		for j, v := range one {
			imp[j] += v / float64(len(f.Trees))
		}
	}
	tree.Normalize(imp)
	return imp
}

// NumLeaves returns the number of leaves of all trees.
func (f *Forest) NumLeaves() int {
	n := 0
	for _, t := range f.Trees {
		n += t.NumLeaves()
	}
	return n
}

// MeanDepth returns the mean depth of the trees.
func (f *Forest) MeanDepth() float64 {
	s := 0.0
	for _, t := range f.Trees {
		s += float64(t.Depth())
	}
	if len(f.Trees) == 0 {
		return math.NaN()
	}
	return s / float64(len(f.Trees))
}

// FitClasses grows a multi-class forest on train, whose labels are
// 0..k-1, as imbalanced-learn 0.10 does for several classes: each tree's
// sample is balanced by RandomUnderSampler(sampling_strategy="auto"),
// every class but the smallest drawn down to the smallest class's size
// (the smallest is the first of the smallest when several are), and the
// trees are multi-class (tree.NewMultiGrower). As Fit, tree j draws from
// the stream j of seed, so the forest does not depend on workers.
func FitClasses(ctx context.Context, train *learn.Data, k int, scheme Scheme, s Settings, seed uint64, workers int, progress func(done, total int)) (*Forest, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	s = s.Resolved()
	if err := tree.CheckClasses(train, "training data", k); err != nil {
		return nil, err
	}
	if _, err := s.Tree.MaxFeaturesOf(train.Cols()); err != nil {
		return nil, fmt.Errorf("%w: max_features: %v", learn.ErrParam, err)
	}
	if _, err := s.Tree.ClassWeight.OfMulti(nil, nil, k); err != nil {
		return nil, err
	}
	workers = learn.Env{Workers: workers}.Threads()
	g, err := tree.NewMultiGrower(ctx, train.X, train.Y, k, workers)
	if err != nil {
		return nil, err
	}
	return grow(ctx, g, train, s, seed, workers, progress, func() func(*rand.Rand) tree.Sample {
		d := newDrawer(train.Y, train.W, k, !s.NoBootstrap, s.Replacement)
		return func(r *rand.Rand) tree.Sample { return d.draw(scheme, r) }
	})
}

// PredictClassProba writes the mean of the trees' class probabilities
// of the rows of x (a multi-class forest), Classes per row, into dst
// (allocated when too short) and returns it.
func (f *Forest) PredictClassProba(x *mat.Dense, dst []float64) []float64 {
	n, c := x.Dims()
	k := f.Classes()
	if len(dst) < n*k {
		dst = make([]float64, n*k)
	}
	dst = dst[:n*k]
	clear(dst)
	raw := x.RawMatrix()
	for i := range n {
		row, out := raw.Data[i*raw.Stride:i*raw.Stride+c], dst[i*k:(i+1)*k]
		for _, t := range f.Trees {
			for j, v := range t.DistRow(row) {
				out[j] += v
			}
		}
		for j := range out {
			out[j] /= float64(len(f.Trees))
		}
	}
	return dst
}

// Classes returns the number of classes of a multi-class forest, 0 for
// one of two.
func (f *Forest) Classes() int {
	if len(f.Trees) == 0 {
		return 0
	}
	return f.Trees[0].Classes
}
