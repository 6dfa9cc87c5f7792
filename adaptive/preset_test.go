package adaptive

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/svm"
)

// plusConfig is the default preset on a small pool and a 2-point member
// grid, so that the test runs in a second.
func plusConfig() *Config {
	return &Config{Components: []int{2, 3}, NInit: 2, MemberParams: []string{"n_estimators=20"},
		Grid: [][]string{{"max_depth=2"}, {"max_depth=3"}}}
}

func TestPresetPlusStructure(t *testing.T) {
	tr, va, te := task(t, 1200, 11)
	m, rep, err := Fit(context.Background(), ld(tr), ld(va), plusConfig(), learn.Env{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Config
	if c.Preset != PresetPlus || !*c.Pool || !*c.Global || c.Space != "logit" || c.Thresholds != "fine" || c.Likelihood != "tempered" ||
		c.WeightData != "valid" || len(c.Peers) != 2 || c.Peers[0].Name() != "logreg" || c.Peers[1].Name() != "svm" || c.Select != "auc" || c.DeltaRule != "bayes" || !rep.BayesDelta {
		t.Fatalf("resolved config %+v is not the plus preset", c)
	}
	// Two settings, each with 2L subset members and one global member,
	// pooled into one ensemble, and the two peers.
	L := rep.Mixture.Components
	if len(m.members) != 2*(2*L+1)+2 || len(rep.Grid) != 1 || rep.Grid[0].Params[0] != "pool" {
		t.Fatalf("%d members for L = %d, grid report %+v", len(m.members), L, rep.Grid)
	}
	owners := map[int]int{}
	for k, o := range m.combiner.Owner {
		owners[o]++
		if o == -1 && !strings.HasPrefix(m.members[k].Name, "all rows [") && m.members[k].Name != "all rows (logreg)" && m.members[k].Name != "all rows (svm)" {
			t.Errorf("member %d owns no component but is named %q", k, m.members[k].Name)
		}
	}
	if owners[-1] != 4 || m.members[len(m.members)-2].Method != "logreg" || m.members[len(m.members)-1].Method != "svm" {
		t.Errorf("%d members without a component, want one per setting and the peers (last member %s)", owners[-1], m.members[len(m.members)-1].Method)
	}
	for l := range L {
		if owners[l] != 4 {
			t.Errorf("component %d has %d members, want 2 per setting", l, owners[l])
		}
	}
	if m.combiner.Space != ensemble.LogitSpace || m.combiner.Dynamic.Rule != ensemble.Tempered && m.combiner.Dynamic.Rule != ensemble.Uniform {
		t.Errorf("combiner %+v: want logit space and a tempered (or uniform) rule", m.combiner)
	}
	// The threshold comes from the fine candidates, not the 0.05 grid.
	if d := m.combiner.Delta; d <= 0 || d >= 1 {
		t.Errorf("delta %v", d)
	}

	// In logit space the contributions sum to the score's logit.
	e, err := m.Breakdown(rowOf(te.X, 0))
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, v := range e.Contribution {
		sum += v
	}
	if got := 1 / (1 + math.Exp(-sum)); math.Abs(got-e.Score) > 1e-12 {
		t.Errorf("sigmoid(sum of contributions) = %v, score %v", got, e.Score)
	}
	p, _, err := m.Score(te.X, 0)
	if err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, m, te.X, p)
	for k := range m.members {
		if back.members[k].Name != m.members[k].Name {
			t.Errorf("member %d: name %q after loading, %q before", k, back.members[k].Name, m.members[k].Name)
		}
	}
}

// A preset only fills the parts left unset: plus with every part set to
// the paper's choice is the paper preset, bit for bit.
func TestPresetFillsPartsOnly(t *testing.T) {
	tr, va, te := task(t, 1000, 12)
	f, tt := false, true
	paperParts := plusConfig()
	paperParts.Pool, paperParts.Global = &f, &f
	paperParts.Space, paperParts.Thresholds, paperParts.Likelihood = "probability", "grid", "exp"
	paperParts.Projection, paperParts.WeightData, paperParts.Peers = "minmax", "union", []learn.Method{}
	paperParts.Select, paperParts.DeltaRule, paperParts.CrossTune = "threshold", "tuned", -1
	paper := plusConfig()
	paper.Preset = PresetPaper
	plusParts := plusConfig()
	plusParts.Preset = PresetPaper
	plusParts.Pool, plusParts.Global = &tt, &tt
	plusParts.Space, plusParts.Thresholds, plusParts.Likelihood = "logit", "fine", "tempered"
	plusParts.WeightData, plusParts.Peers, plusParts.Select = "valid", []learn.Method{logreg.NewStandardized(), svm.NewStandardized()}, "auc"
	plusParts.DeltaRule, plusParts.CrossTune, plusParts.CrossTuneComponents, plusParts.CrossTuneMaxBin = "bayes", 4, 2, 32
	scores := func(c *Config) []float64 {
		m, _, err := Fit(context.Background(), ld(tr), ld(va), c, learn.Env{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		p, _, err := m.Score(te.X, 0)
		if err != nil {
			t.Fatal(err)
		}
		return append(p, m.Threshold()) // the threshold too
	}
	same := func(what string, a, b []float64) {
		t.Helper()
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				t.Fatalf("%s: row %d scores %v and %v", what, i, a[i], b[i])
			}
		}
	}
	same("paper preset vs plus with the paper's parts", scores(paper), scores(paperParts))
	same("plus preset vs paper with the plus parts", scores(plusConfig()), scores(plusParts))
}

// Each part switched alone changes the model (else its switch is dead).
func TestPresetPartsSwitch(t *testing.T) {
	tr, va, te := task(t, 1000, 13)
	base := func() []float64 {
		m, _, err := Fit(context.Background(), ld(tr), ld(va), plusConfig(), learn.Env{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		p, _, err := m.Score(te.X, 0)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}()
	for _, kv := range []string{"pool=false", "global=false", "space=probability", "likelihood=exp", "weight_data=union", "peers=none", "select=threshold", "cross_tune_components=-1", "cross_tune_max_bin=-1"} {
		c := plusConfig()
		k, v, _ := strings.Cut(kv, "=")
		if err := c.Set(k, v); err != nil {
			t.Fatal(err)
		}
		m, rep, err := Fit(context.Background(), ld(tr), ld(va), c, learn.Env{Seed: 5})
		if err != nil {
			t.Fatalf("%s: %v", kv, err)
		}
		p, _, err := m.Score(te.X, 0)
		if err != nil {
			t.Fatal(err)
		}
		differ := false
		for i := range p {
			differ = differ || p[i] != base[i]
		}
		if !differ {
			t.Errorf("%s: the scores equal the default's", kv)
		}
		switch kv {
		case "pool=false":
			if len(rep.Grid) != 2 || len(m.members) != 2*rep.Mixture.Components+3 {
				t.Errorf("pool=false: %d grid points, %d members", len(rep.Grid), len(m.members))
			}
		case "peers=none":
			if len(m.members) != 2*(2*rep.Mixture.Components+1) {
				t.Errorf("peers=none: %d members", len(m.members))
			}
		case "global=false":
			if len(m.members) != 2*2*rep.Mixture.Components+2 {
				t.Errorf("global=false: %d members", len(m.members))
			}
		}
	}
}

// Model files written before presets existed hold the paper's method.
func TestLoadBeforePresets(t *testing.T) {
	tr, va, _ := task(t, 800, 14)
	c := smallConfig()
	c.Preset = PresetPaper
	m, _, err := Fit(context.Background(), ld(tr), ld(va), c, learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	cfg := doc["config"].(map[string]any)
	for _, k := range []string{"preset", "pool", "global", "space", "thresholds", "peers"} {
		if _, ok := cfg[k]; !ok {
			t.Fatalf("saved config lacks %q: %v", k, cfg)
		}
		delete(cfg, k)
	}
	old, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load(old)
	if err != nil {
		t.Fatal(err)
	}
	if back.config.Preset != PresetPaper {
		t.Errorf("old model file loads with preset %q", back.config.Preset)
	}
	if bytes.Contains(old, []byte(`"preset"`)) {
		t.Fatal("test did not strip the preset")
	}
}

func rowOf(x interface{ RawRowView(int) []float64 }, i int) []float64 {
	return append([]float64(nil), x.RawRowView(i)...)
}
