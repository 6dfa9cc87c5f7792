package adaptive

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/synth"
)

// task returns a small synthetic imbalanced task split 3:1:1.
func task(t testing.TB, n int, seed uint64) (train, valid, test *dataset.Dataset) {
	t.Helper()
	g, err := synth.Generate(&synth.Settings{Samples: n, Ratio: 15, Clusters: 3, Features: 6, Informative: 4, Redundant: synth.None, FlipY: synth.None}, seed)
	if err != nil {
		t.Fatal(err)
	}
	d := g.Dataset("task")
	parts, err := dataset.StratifiedSplit(d.Y, []float64{3, 1, 1}, seed)
	if err != nil {
		t.Fatal(err)
	}
	return d.Subset(parts[0]), d.Subset(parts[1]), d.Subset(parts[2])
}

func smallConfig() *Config {
	return &Config{Components: []int{2, 3}, NInit: 2, NoGrid: true, MemberParams: []string{"n_estimators=20", "max_depth=3"}}
}

// ld is the learn.Data of a dataset.
func ld(d *dataset.Dataset) *learn.Data { return &learn.Data{X: d.X, Y: d.Y, Features: d.Features} }

// roundTrip saves and loads m and checks that the loaded model scores x
// bit for bit as p, the scores of m.
func roundTrip(t *testing.T, m *Model, x *mat.Dense, p []float64) *Model {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	q, _, err := back.Score(x, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range p {
		if math.Float64bits(p[i]) != math.Float64bits(q[i]) {
			t.Fatalf("row %d: %v before saving, %v after", i, p[i], q[i])
		}
	}
	return back
}

func TestFitPredictRoundTrip(t *testing.T) {
	tr, va, te := task(t, 1200, 1)
	m, rep, err := Fit(context.Background(), ld(tr), ld(va), smallConfig(), learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	L := m.mixture.K()
	// The default preset adds a member trained on all rows and the two
	// peers (logreg, svm) to the 2L.
	if L != rep.Mixture.Components || len(m.members) != 2*L+3 || len(rep.Subsets) != 2*L {
		t.Fatalf("L = %d, %d members, %d subsets", L, len(m.members), len(rep.Subsets))
	}
	sum := 0.0
	for _, w := range m.combiner.Static {
		if w < 0 {
			t.Errorf("negative static weight %v", w)
		}
		sum += w
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("static weights sum to %v", sum)
	}
	if m.combiner.Lambda < 0 || m.combiner.Lambda > 1 {
		t.Errorf("lambda %v", m.combiner.Lambda)
	}
	// Subset sizes follow Algorithm 1: global = floor(m_n/L) majority minus
	// Tomek removals, local = m_k + floor(m_k/2) majority.
	counts := tr.ClassCounts()
	mn, mk := counts[0], counts[1]
	for k, s := range rep.Subsets {
		if s.Minority != mk {
			t.Errorf("subset %d has %d minority rows, want %d", k, s.Minority, mk)
		}
		if k%2 == 0 && s.Majority+s.TomekRemoved != mn/L {
			t.Errorf("global subset %d: %d majority + %d removed, want %d", k, s.Majority, s.TomekRemoved, mn/L)
		}
		if k%2 == 1 && s.Majority != mk+mk/2 {
			t.Errorf("local subset %d: %d majority, want %d", k, s.Majority, mk+mk/2)
		}
	}
	p, _, err := m.Score(te.X, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := metrics.Evaluate(te.Y, p, m.Threshold(), nil)
	if r.ROCAUC < 0.8 {
		t.Errorf("test ROC-AUC %.3f on an easy task", r.ROCAUC)
	}
	// The validation report is the model's own score at delta.
	pv, _, _ := m.Score(va.X, 0)
	// The tuning's metric is at the tuned delta; the plus preset's delta is
	// the Bayes threshold instead.
	if got := metrics.Evaluate(va.Y, pv, m.Threshold(), nil).BalancedAccuracy; got != rep.Valid.BalancedAccuracy || got != rep.Tune.Metric && !rep.BayesDelta {
		t.Errorf("validation BA %v, report %v, tune %v", got, rep.Valid.BalancedAccuracy, rep.Tune.Metric)
	}

	back := roundTrip(t, m, te.X, p)
	b, _ := m.MarshalBinary()
	b2, _ := back.MarshalBinary()
	if !bytes.Equal(b, b2) {
		t.Error("re-encoding a loaded model changes its bytes")
	}

	// Explain agrees with PositiveProba.
	for _, i := range []int{0, 7} {
		e, err := m.Breakdown(te.X.RawRowView(i))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(e.Score-p[i]) > 1e-12 {
			t.Errorf("row %d: explained score %v, predicted %v", i, e.Score, p[i])
		}
		c := 0.0
		for _, v := range e.Contribution {
			c += v
		}
		// Logit space (the default preset): they sum to the score's logit.
		if math.Abs(c-math.Log(e.Score/(1-e.Score))) > 1e-9 {
			t.Errorf("contributions sum to %v, score %v", c, e.Score)
		}
		if len(e.Members) != 2*L+3 || e.Members[1] != "local 0" || e.Members[2*L] != "all rows" || e.Members[2*L+1] != "all rows (logreg)" || e.Members[2*L+2] != "all rows (svm)" {
			t.Errorf("member names %v", e.Members)
		}
	}
}

func TestDeterminism(t *testing.T) {
	tr, va, _ := task(t, 900, 2)
	enc := func(workers int) []byte {
		m, _, err := Fit(context.Background(), ld(tr), ld(va), smallConfig(), learn.Env{Seed: 7, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b, c := enc(1), enc(2), enc(4)
	if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
		t.Error("models differ with the number of workers")
	}
}

func TestHoldoutAndVariants(t *testing.T) {
	tr, _, te := task(t, 1000, 3)
	for _, params := range []string{
		"likelihood=log&projection=minmax&outputs=binary",
		"likelihood=tempered&weight_data=valid",
		"preset=paper&dynamic_ensemble=true&grid=&pool=false",
		"rank=responsibility&tomek=false&init=uniform&projection=simplex",
		"grid=max_depth:2,n_estimators:10;max_depth:3,n_estimators:20&pool=false",
		"preset=paper&likelihood=tempered&space=logit",
	} {
		c := smallConfig()
		c.CrossTune = -1 // the hold-out share (cross_tune has TestCrossTune)
		for _, kv := range strings.Split(params, "&") {
			k, v, _ := strings.Cut(kv, "=")
			if err := c.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		m, rep, err := Fit(context.Background(), ld(tr), nil, c, learn.Env{})
		if err != nil {
			t.Fatalf("%s: %v", params, err)
		}
		if !rep.Holdout || rep.TrainRows+rep.ValidRows != tr.Rows() {
			t.Errorf("%s: hold-out %v, %d + %d rows of %d", params, rep.Holdout, rep.TrainRows, rep.ValidRows, tr.Rows())
		}
		if c.DynamicEnsemble && m.combiner.Lambda != 1 {
			t.Errorf("Dynamic Ensemble has lambda %v", m.combiner.Lambda)
		}
		if len(c.Grid) == 2 && len(rep.Grid) != 2 {
			t.Errorf("grid: %d points reported", len(rep.Grid))
		}
		// The paper's default member grid is 2x2; plus trains one setting.
		if c.DynamicEnsemble && (len(rep.Grid) != 4 || rep.Grid[0].Params[0] != "eta=0.1" || rep.Grid[3].Params[1] != "max_depth=6") {
			t.Errorf("paper's default grid: %+v", rep.Grid)
		}
		if params == "likelihood=tempered&weight_data=valid" && (len(rep.Grid) != 1 || len(rep.Grid[0].Params) != 0) {
			t.Errorf("plus's default grid: %+v", rep.Grid)
		}
		if _, _, err := m.Score(te.X, 0); err != nil {
			t.Errorf("%s: %v", params, err)
		}
	}
}

func TestMissingValuesAndErrors(t *testing.T) {
	tr, va, te := task(t, 800, 4)
	tr.X.Set(0, 0, math.NaN())
	tr.X.Set(5, 2, math.NaN())
	m, _, err := Fit(context.Background(), ld(tr), ld(va), smallConfig(), learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if math.IsNaN(m.means[0]) {
		t.Error("imputation mean is NaN")
	}
	row := append([]float64(nil), te.X.RawRowView(0)...)
	row[1] = math.NaN()
	x := mat.NewDense(1, len(row), row)
	p, _, err := m.Score(x, 0)
	if err != nil || math.IsNaN(p[0]) {
		t.Errorf("missing value at prediction: %v %v", p, err)
	}
	if _, err := m.PositiveProba(mat.NewDense(1, 2, []float64{1, 2}), nil); err == nil {
		t.Error("wrong feature count accepted")
	}
	b, _ := m.MarshalBinary()
	if _, err := Load(b[:len(b)/2]); err == nil {
		t.Error("truncated model accepted")
	}
	if _, err := Load(bytes.Replace(b, []byte("aer-model-2"), []byte("aer-model-9"), 1)); err == nil || !strings.Contains(err.Error(), "format") {
		t.Errorf("other format version: %v", err)
	}
	for _, c := range []Config{{Covariance: "banana"}, {Metric: "g-mean"}, {Projection: "l1"}, {Components: []int{0}}, {Holdout: 2}} {
		if _, _, err := Fit(context.Background(), ld(tr), ld(va), &c, learn.Env{}); err == nil {
			t.Errorf("config %+v accepted", c)
		}
	}
	y := make([]int, len(tr.Y))
	if _, _, err := Fit(context.Background(), &learn.Data{X: tr.X, Y: y}, ld(va), smallConfig(), learn.Env{}); err == nil {
		t.Error("training data without positives accepted")
	}
	var c Config
	if err := c.Set("no_such_param", "1"); err == nil {
		t.Error("unknown parameter accepted")
	}
	if err := c.Set("components", "2-x"); err == nil {
		t.Error("bad pool accepted")
	}
}

func TestParsePool(t *testing.T) {
	for in, want := range map[string]string{"3": "[3]", "2-5": "[2 3 4 5]", "2,4, 6": "[2 4 6]", "1-2,5": "[1 2 5]"} {
		got, err := ParsePool(in)
		if err != nil || sprint(got) != want {
			t.Errorf("ParsePool(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "5-2", "a", "2-", "2147483648", "2147483600-2147483648", "1099511627776", "100001"} {
		if _, err := ParsePool(in); err == nil {
			t.Errorf("ParsePool(%q) accepted", in)
		}
	}
}

func sprint(v []int) string {
	var b strings.Builder
	b.WriteString("[")
	for i, x := range v {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteString("]")
	return b.String()
}

// TestPoolGuard: mixture sizes the majority rows cannot support (fewer than
// d+1 rows per component with full covariances) are left out of the pool.
func TestPoolGuard(t *testing.T) {
	tr, va, _ := task(t, 300, 5) // about 169 majority training rows, 6 features
	counts := tr.ClassCounts()
	neg, _ := counts[0], counts[1]
	c := smallConfig()
	c.Components = []int{2, 20, 24, 25, 40}
	c.Covariance = "full"
	_, rep, err := Fit(context.Background(), ld(tr), ld(va), c, learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range rep.Pool {
		if l*7 > neg {
			t.Errorf("pool %v keeps L = %d for %d majority rows", rep.Pool, l, neg)
		}
	}
	if len(rep.Pool) == 0 || rep.Pool[0] != 2 || len(rep.Pool) == len(c.Components) {
		t.Errorf("pool %v from %v with %d majority rows", rep.Pool, c.Components, neg)
	}
	// The sizes left out are named in the report's first warning.
	if want := fmt.Sprintf("L = 25,40 left out: %d rows are too few (full covariance needs 7 rows per component)", neg); len(rep.Warnings) == 0 || rep.Warnings[0] != want {
		t.Errorf("warnings %q, want %q first", rep.Warnings, want)
	}
	c.Components = []int{100}
	if _, _, err := Fit(context.Background(), ld(tr), ld(va), c, learn.Env{}); err == nil || !strings.Contains(err.Error(), "too few") {
		t.Errorf("impossible pool: %v", err)
	}
}

// centroid is a toy member method: the probability of the positive class
// falls with the distance to the positive centroid relative to the
// negative one. It is defined only here and registered for the tests.
type centroid struct {
	Pos, Neg []float64
}

func (c *centroid) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, d := x.Dims()
	if len(dst) < r {
		dst = make([]float64, r)
	}
	for i := range r {
		var dp, dn float64
		for j := range d {
			v := x.At(i, j)
			dp += (v - c.Pos[j]) * (v - c.Pos[j])
			dn += (v - c.Neg[j]) * (v - c.Neg[j])
		}
		dst[i] = 1 / (1 + math.Exp(dp-dn))
	}
	return dst[:r], nil
}

func (c *centroid) NumFeatures() int               { return len(c.Pos) }
func (c *centroid) MarshalBinary() ([]byte, error) { return json.Marshal(c) }

type centroidMethod struct{}

func (centroidMethod) Name() string                { return "centroid-test" }
func (centroidMethod) Set(key, value string) error { return fmt.Errorf("%w %q", learn.ErrParam, key) }
func (centroidMethod) Params() []learn.Param       { return nil }
func (centroidMethod) Load(b []byte) (learn.Scorer, error) {
	c := new(centroid)
	return c, json.Unmarshal(b, c)
}

func (centroidMethod) Fit(_ context.Context, train, _ *learn.Data, _ learn.Env) (learn.Scorer, error) {
	x, y := train.X, train.Y
	_, d := x.Dims()
	c := &centroid{make([]float64, d), make([]float64, d)}
	var np, nn float64
	for i, v := range y {
		dst, n := c.Neg, &nn
		if v == 1 {
			dst, n = c.Pos, &np
		}
		*n++
		for j := range d {
			dst[j] += x.At(i, j)
		}
	}
	for j := range d {
		c.Pos[j] /= np
		c.Neg[j] /= nn
	}
	return c, nil
}

func init() { learn.Register(func() learn.Method { return centroidMethod{} }) }

// TestCustomMember: any registered method can be the members' method, and
// the model saves and loads back through the registry.
func TestCustomMember(t *testing.T) {
	tr, va, te := task(t, 1000, 6)
	c := smallConfig()
	if err := c.Set("member", "centroid-test"); err != nil {
		t.Fatal(err)
	}
	c.MemberParams = nil
	m, rep, err := Fit(context.Background(), ld(tr), ld(va), c, learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.members[0].Model.(*centroid); !ok || m.members[0].Method != "centroid-test" || len(rep.Grid) != 1 || rep.Grid[0].MemberLeaves[0] != 1 {
		t.Errorf("members %+v, grid %+v", m.members[0], rep.Grid)
	}
	p, _, err := m.Score(te.X, 0)
	if err != nil {
		t.Fatal(err)
	}
	if auc := metrics.ROCAUC(te.Y, p, nil); auc < 0.6 {
		t.Errorf("centroid members: test ROC-AUC %.3f", auc)
	}
	roundTrip(t, m, te.X, p)
	if err := c.Set("eta", "0.1"); err == nil {
		t.Error("a parameter the member method does not know was accepted")
	}
}

// TestWeights: weights of 1 are no weights, bit for bit; other weights
// reach the members and the static weights; bad weights are refused.
func TestWeights(t *testing.T) {
	tr, va, _ := task(t, 900, 8)
	enc := func(w []float64) []byte {
		d := ld(tr)
		d.W = w
		m, _, err := Fit(context.Background(), d, ld(va), smallConfig(), learn.Env{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ones := make([]float64, tr.Rows())
	heavy := make([]float64, tr.Rows())
	for i := range ones {
		ones[i] = 1
		heavy[i] = 1 + float64(4*tr.Y[i])
	}
	base := enc(nil)
	if !bytes.Equal(base, enc(ones)) {
		t.Error("weights of 1 changed the model")
	}
	if bytes.Equal(base, enc(heavy)) {
		t.Error("positive rows weighted 5 gave the unweighted model")
	}
	bad := ld(tr)
	bad.W = append([]float64(nil), ones...)
	bad.W[7] = -1
	if _, _, err := Fit(context.Background(), bad, ld(va), smallConfig(), learn.Env{}); err == nil || !strings.Contains(err.Error(), "row 8") {
		t.Errorf("negative weight: %v", err)
	}
}

// TestParams: AER's parameters, its members' (member.KEY) and its peers'
// (peer.NAME.KEY) are listed with values and defaults; member parameters
// set on AER show, and switch the grid off.
func TestParams(t *testing.T) {
	m := NewMethod()
	for _, kv := range [][2]string{{"components", "2-4,6"}, {"member.eta", "0.05"}, {"projection", "simplex"}, {"peer.logreg.C", "0.5"}} {
		if err := m.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]learn.Param{}
	for _, p := range m.Params() {
		got[p.Key] = p
	}
	for key, want := range map[string][2]string{
		"components": {"2-4,6", "2-8"}, "member.eta": {"0.05", "0.3"}, "grid": {"none", "none"},
		"projection": {"simplex", "minmax"}, "member": {"gbdt", "gbdt"}, "member.n_estimators": {"60", "60"}, "member.max_depth": {"4", "4"},
		"peers": {"logreg,svm", "logreg,svm"}, "peer.svm.C": {"1", "1"}, "peer_rows": {"10000", "10000"}, "peer.logreg.C": {"0.5", "1"}, "peer.logreg.max_iter": {"2000", "2000"},
		"max_iter": {"1000", "1000"},
	} {
		if p := got[key]; p.Value != want[0] || p.Default != want[1] {
			t.Errorf("%s: value %q default %q, want %q and %q", key, p.Value, p.Default, want[0], want[1])
		}
	}
	if _, ok := got["eta"]; ok {
		t.Error("a member parameter is listed without its namespace")
	}
	// Under the paper's preset the default is the 2x2 member grid, and a
	// member parameter switches it off.
	paper := NewMethod()
	if err := paper.Set("preset", "paper"); err != nil {
		t.Fatal(err)
	}
	if p := learn.ParamMap(paper.Params())["grid"]; p != "default" {
		t.Errorf("paper's grid %q, want default", p)
	}
	if err := paper.Set("member.eta", "0.05"); err != nil {
		t.Fatal(err)
	}
	if p := learn.ParamMap(paper.Params())["grid"]; p != "none" {
		t.Errorf("paper's grid after member.eta: %q, want none", p)
	}
	if err := m.Set("etaa", "1"); err == nil || !strings.Contains(err.Error(), "member.KEY") {
		t.Errorf("an unknown key's error does not name the namespaces: %v", err)
	}
	for _, bad := range [][2]string{{"covariance", "banana"}, {"n_init", "0"}, {"holdout", "1"}, {"member.max_depth", "deep"},
		{"max_depth", "deep"}, {"no_such_key", "1"}, {"member.no_such_key", "1"}, {"peer.no_such_key", "1"}, {"peer.balanced-rf.C", "1"}} {
		if err := m.Set(bad[0], bad[1]); !errors.Is(err, learn.ErrParam) {
			t.Errorf("Set(%s, %s): %v", bad[0], bad[1], err)
		}
	}
}

// TestParamNamespaces: AER's max_iter and tol are AER's, member.max_iter
// and peer.NAME.tol reach the member and peer methods; a flat member key
// is a deprecated alias of member.KEY; peer.KEY is refused with several
// peers; the settings reach the fitted members and peers and the saved
// configuration, and load back.
func TestParamNamespaces(t *testing.T) {
	c := &Config{}
	for _, kv := range [][2]string{{"member", "logreg"}, {"max_iter", "50"}, {"member.max_iter", "7"}, {"tol", "1e-3"},
		{"peers", "logreg,gbdt"}, {"peer.logreg.C", "0.25"}, {"peer.gbdt.n_estimators", "3"}, {"member.C", "2"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if c.MaxIter != 50 || c.Tol != 1e-3 || !slices.Equal(c.MemberParams, []string{"max_iter=7", "C=2"}) {
		t.Fatalf("max_iter %d, tol %v, member params %v", c.MaxIter, c.Tol, c.MemberParams)
	}
	if err := c.Set("peer.C", "1"); err == nil || !strings.Contains(err.Error(), "peer.NAME.C") {
		t.Errorf("peer.C with two peers: %v", err)
	}
	if got := learn.ParamMap(c.Peers[0].Params())["C"]; got != "0.25" {
		t.Errorf("peer logreg C = %q", got)
	}
	// The deprecated flat form of a member key.
	old := &Config{}
	if err := old.Set("max_depth", "4"); err != nil || !slices.Equal(old.MemberParams, []string{"max_depth=4"}) || !old.NoGrid {
		t.Errorf("flat max_depth: %v, member params %v", err, old.MemberParams)
	}

	c.Components, c.NInit = []int{2}, 1
	tr, va, _ := task(t, 600, 4)
	m, _, err := Fit(context.Background(), ld(tr), ld(va), c, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, mb := range m.members {
		if mb.Method != "logreg" && mb.Name != "all rows (gbdt)" {
			t.Errorf("member %q fitted by %s", mb.Name, mb.Method)
		}
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"peer_params":["logreg.C=0.25","gbdt.n_estimators=3"]`)) || !bytes.Contains(b, []byte(`"member_params":["max_iter=7","C=2"]`)) {
		t.Errorf("saved configuration lacks the settings: %s", b[:min(len(b), 2000)])
	}
	back, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	bc := back.Config()
	if bc.Member.Name() != "logreg" || len(bc.Peers) != 2 || learn.ParamMap(bc.Peers[1].Params())["n_estimators"] != "3" {
		t.Errorf("loaded configuration: member %v, peers %v", bc.Member, methodNames(bc.Peers))
	}
}

// TestMemberValue: a member method configured in Go trains the same
// model, bit for bit, as its settings given as text, and the saved
// configuration records them; the caller's method is not changed, and a
// grid applies on top of its settings.
func TestMemberValue(t *testing.T) {
	tr, va, _ := task(t, 800, 5)
	mv := boost.NewMethod()
	for _, kv := range [][2]string{{"n_estimators", "20"}, {"max_depth", "3"}} {
		if err := mv.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	fit := func(c *Config) (*Model, *Report) {
		t.Helper()
		m, rep, err := Fit(context.Background(), ld(tr), ld(va), c, learn.Env{Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		return m, rep
	}
	byValue, _ := fit(&Config{Components: []int{2, 3}, NInit: 2, NoGrid: true, Member: mv})
	byText, _ := fit(smallConfig())
	a, err := byValue.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	b, err := byText.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("member by value and by text differ: %v and %v", byValue.Config().MemberParams, byText.Config().MemberParams)
	}
	if got := settingsOf(mv); !slices.Equal(got, []string{"n_estimators=20", "max_depth=3"}) {
		t.Errorf("the caller's member method changed: %v", got)
	}
	_, rep := fit(&Config{Components: []int{2}, NInit: 1, Pool: new(bool), Member: mv, Grid: [][]string{{"eta=0.1"}, {"max_depth=1"}}})
	if len(rep.Grid) != 2 || rep.Grid[0].MemberLeaves[0] == rep.Grid[1].MemberLeaves[0] ||
		!slices.Equal(rep.Config.MemberParams, []string{"n_estimators=20", "max_depth=3"}) {
		t.Errorf("grid on a member value: %+v, member params %v", rep.Grid, rep.Config.MemberParams)
	}
}

// TestFitWarnings: the report words the mixture's warnings as
// mixture.Selection.Warnings does (a chosen L at the largest of the
// pool), the model gives them as a learn.Warner, and a loaded model,
// whose file does not hold them, has none.
func TestFitWarnings(t *testing.T) {
	tr, va, _ := task(t, 300, 5)
	c := smallConfig()
	c.Components = []int{1, 2}
	m, rep, err := Fit(context.Background(), ld(tr), ld(va), c, learn.Env{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Mixture.Components != 2 {
		t.Fatalf("BIC chose L = %d of %v; the test wants the largest", rep.Mixture.Components, rep.Pool)
	}
	want := "BIC chose a mixture of L = 2 components, the largest of the pool 1-2: more may fit better"
	if len(rep.Warnings) == 0 || rep.Warnings[0] != want || !reflect.DeepEqual(rep.Warnings, rep.Mixture.Warnings(0)) {
		t.Errorf("warnings %q, want %q first, as the selection's %q", rep.Warnings, want, rep.Mixture.Warnings(0))
	}
	if got := learn.WarningsOf(m); !reflect.DeepEqual(got, rep.Warnings) {
		t.Errorf("WarningsOf %q, report %q", got, rep.Warnings)
	}
	p, _, err := m.Score(va.X, 0)
	if err != nil {
		t.Fatal(err)
	}
	if back := roundTrip(t, m, va.X, p); back.Warnings() != nil {
		t.Errorf("a loaded model has warnings %q", back.Warnings())
	}
	// A pool of one L has no edge to warn of.
	c.Components = []int{2}
	_, rep, err = Fit(context.Background(), ld(tr), ld(va), c, learn.Env{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range rep.Warnings {
		if strings.Contains(w, "of the pool") {
			t.Errorf("pool %v: %q", rep.Pool, w)
		}
	}
}

// NumClasses is 2: centroid scores the positive class (PositiveProba).
func (c *centroid) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (c *centroid) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(c, x, dst)
}

// Without validation data the model keeps the held-out rows' labels and
// its scores of them (learn.HeldOuter), for a decision layer; with
// validation data it holds none.
func TestHeldOut(t *testing.T) {
	ctx := context.Background()
	tr, va, _ := task(t, 1000, 5)
	env := learn.Env{Seed: 3, Workers: 2}
	c := smallConfig()
	c.CrossTune = -1 // one held-out share; TestCrossTune has every row out of fold
	m, _, err := Fit(ctx, ld(tr), nil, c, env)
	if err != nil {
		t.Fatal(err)
	}
	y, s, w := m.HeldOut()
	r, _ := c.resolve()
	_, held, _ := holdOut(ld(tr), nil, r, env)
	hs, _, _ := m.Score(held.X, 1)
	if y == nil || w != nil || !reflect.DeepEqual(y, held.Y) || !reflect.DeepEqual(s, hs) {
		t.Errorf("held-out labels %v and scores %v, want %v and %v", y, s, held.Y, hs)
	}
	// With validation data, cross-tuned (the default), the held-out rows
	// are the training rows scored out of fold; tuned on the validation
	// rows alone, none.
	v, _, err := Fit(ctx, ld(tr), ld(va), smallConfig(), env)
	if err != nil {
		t.Fatal(err)
	}
	if y, s, _ := v.HeldOut(); !reflect.DeepEqual(y, tr.Y) || len(s) != len(tr.Y) || v.HeldOutFolds() != 4 {
		t.Errorf("cross-tuned with validation data: %d held-out labels (want the %d training rows'), %d folds", len(y), len(tr.Y), v.HeldOutFolds())
	}
	if y, s, _ := v.HeldOut(); reflect.DeepEqual(s, mustScore(t, v, tr.X)) || len(y) == 0 {
		t.Error("the training rows' held-out scores are the model's own")
	}
	c = smallConfig()
	c.CrossTune = -1
	if v, _, err = Fit(ctx, ld(tr), ld(va), c, env); err != nil {
		t.Fatal(err)
	}
	if y, _, _ := v.HeldOut(); y != nil {
		t.Errorf("tuned on validation data alone: held-out labels %v", y)
	}
}
