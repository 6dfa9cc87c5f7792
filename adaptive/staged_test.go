package adaptive

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/resample"
)

// stagedFit runs Fit's steps through Staged on one machine, as an engine
// would, with the subsets of resample.Subsets.
func stagedFit(t *testing.T, cfg *Config, seed uint64, train, valid *learn.Data) *Model {
	t.Helper()
	ctx := context.Background()
	s, err := NewStaged(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	means := dataset.ColumnMeans(train.X)
	xt := mat.DenseCopyOf(train.X)
	dataset.Impute(xt, means)
	var scaler *dataset.Scaler
	if s.Standardize() {
		scaler = dataset.FitScaler(xt)
		scaler.Transform(xt)
	}
	var majority, minority []int
	for i, v := range train.Y {
		if v == 1 {
			minority = append(minority, i)
		} else {
			majority = append(majority, i)
		}
	}
	env := learn.Env{Workers: 2}
	sel, err := s.FitMixture(ctx, learn.Rows(xt, majority), len(majority), nil, env)
	if err != nil {
		t.Fatal(err)
	}
	scores, err := s.Scores(sel.Model, learn.Rows(xt, majority))
	if err != nil {
		t.Fatal(err)
	}
	subsets, err := resample.Subsets(xt, scores, majority, minority, rng.DeriveSeed(seed, streamSubsets), &resample.SubsetOptions{
		LocalRandom: s.LocalRandom(), NoTomek: !s.Tomek(), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	p := &Parts{Means: means, Scaler: scaler, Mixture: sel, Subsets: subsets,
		TrainRows: train.Rows(), TrainPositives: len(minority), Prior: train.PositiveShare()}
	all := &learn.Data{X: xt, Y: train.Y, W: train.W}
	for g := range s.Learners() {
		var ms []Member
		for k, sub := range subsets {
			mb, err := s.FitMember(ctx, g, k, s.MemberName(g, sub.Kind, sub.Component), all.Subset(sub.Rows), env)
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, mb)
		}
		if s.Global() {
			bal := &learn.Data{X: xt, Y: train.Y, W: BalancedWeights(train)}
			mb, err := s.FitMember(ctx, g, len(subsets), s.MemberName(g, "", -1), bal, env)
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, mb)
		}
		p.Members = append(p.Members, ms)
	}
	for k := range s.Peers() {
		mb, err := s.FitPeer(ctx, k, all, env)
		if err != nil {
			t.Fatal(err)
		}
		p.Peers = append(p.Peers, mb)
	}
	m, _, err := s.Assemble(ctx, p, valid, env)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestStagedEqualsFit checks that Fit's steps run one by one through
// Staged give Fit's model byte for byte: the staged API is Fit's, not an
// approximation of it (Fit tuning on the validation rows alone, as a
// staged fit does); a staged fit refuses to cross-tune.
func TestStagedEqualsFit(t *testing.T) {
	tr, va, _ := task(t, 1500, 3)
	for _, tc := range []struct {
		name string
		cfg  func() *Config
	}{
		{"plus", smallConfig},
		{"no global, no peers, two settings", func() *Config {
			c := smallConfig()
			f := false
			c.Global, c.Peers = &f, []learn.Method{}
			c.NoGrid, c.Grid = false, [][]string{{"max_depth=2"}, {"max_depth=3"}}
			return c
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A staged fit tunes on the validation rows alone.
			fc := tc.cfg()
			fc.CrossTune = -1
			want, _, err := Fit(context.Background(), ld(tr), ld(va), fc, learn.Env{Seed: 7, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			got := stagedFit(t, tc.cfg(), 7, ld(tr), ld(va))
			wb, err := want.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			gb, err := got.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(wb, gb) {
				t.Fatalf("staged model differs from Fit's (%d against %d bytes)", len(gb), len(wb))
			}
		})
	}
}

// TestStagedCrossTune: a staged fit records cross_tune -1 (it tunes on
// the validation rows alone) and refuses a configuration that asks to
// cross-tune.
func TestStagedCrossTune(t *testing.T) {
	s, err := NewStaged(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Config().CrossTune; got != -1 {
		t.Errorf("staged default: cross_tune %d, want -1", got)
	}
	if _, err := NewStaged(&Config{CrossTune: 4}, 1); !errors.Is(err, learn.ErrParam) {
		t.Errorf("cross_tune 4: err %v, want learn.ErrParam", err)
	}
}

// TestStagedRefusesUnion checks that a configuration fitting the static
// weights on the subsets' union is refused with a parameter error.
func TestStagedRefusesUnion(t *testing.T) {
	_, err := NewStaged(&Config{Preset: PresetPaper}, 1)
	if !errors.Is(err, learn.ErrParam) {
		t.Fatalf("paper preset: err %v, want learn.ErrParam", err)
	}
	if _, err := NewStaged(&Config{Preset: PresetPaper, WeightData: WeightValid}, 1); err != nil {
		t.Fatalf("paper preset with weight_data=valid: %v", err)
	}
}
