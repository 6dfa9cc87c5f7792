package resample

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
)

// strategyGolden is testdata/sampling_strategy_golden.json, written by
// sampling_strategy_golden.py with imbalanced-learn 0.10.
type strategyGolden struct {
	Imblearn string `json:"imblearn"`
	Tables   []struct {
		Name       string      `json:"name"`
		X          [][]float64 `json:"x"`
		Y          []int       `json:"y"`
		KNeighbors int         `json:"k_neighbors"`
		Cases      []struct {
			Strategy     string         `json:"strategy"`
			Over         goldenResolved `json:"over-sampling"`
			Under        goldenResolved `json:"under-sampling"`
			Clean        goldenResolved `json:"clean-sampling"`
			RUSCounts    []int          `json:"rus_counts"`
			SMOTECounts  []int          `json:"smote_counts"`
			TomekRemoved []int          `json:"tomek_removed"`
		} `json:"cases"`
	} `json:"tables"`
}

// goldenResolved is check_sampling_strategy's answer: its targets as
// [class, n] pairs in class order, or the error it raised.
type goldenResolved struct {
	Targets [][2]int `json:"targets"`
	Error   *string  `json:"error"`
}

func loadStrategyGolden(t *testing.T) strategyGolden {
	t.Helper()
	b, err := os.ReadFile("testdata/sampling_strategy_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g strategyGolden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Tables) != 4 {
		t.Fatalf("%d tables in the golden file", len(g.Tables))
	}
	return g
}

func goldenData(x [][]float64, y []int) *learn.Data {
	m := mat.NewDense(len(x), len(x[0]), nil)
	for i, row := range x {
		m.SetRow(i, row)
	}
	return &learn.Data{X: m, Y: y}
}

// classCounts counts the rows of each label 0..k-1.
func classCounts(y []int, k int) []int {
	n := make([]int, k)
	for _, v := range y {
		n[v]++
	}
	return n
}

// TestStrategyGolden: for every strategy form and sampling type, on
// glass, a hand-made table of five classes with tied counts, and two
// two-class tables (one tied), Targets equals imbalanced-learn's
// check_sampling_strategy, errors included.
func TestStrategyGolden(t *testing.T) {
	g := loadStrategyGolden(t)
	checked, refused := 0, 0
	for _, tab := range g.Tables {
		for _, c := range tab.Cases {
			s, err := ParseStrategy(c.Strategy)
			if err != nil {
				t.Fatalf("%s: ParseStrategy(%q): %v", tab.Name, c.Strategy, err)
			}
			if again, err := ParseStrategy(s.String()); err != nil || again.String() != s.String() {
				t.Errorf("%q: String %q does not parse back: %v", c.Strategy, s.String(), err)
			}
			for _, tc := range []struct {
				typ  SamplingType
				want goldenResolved
			}{{OverSampling, c.Over}, {UnderSampling, c.Under}, {Cleaning, c.Clean}} {
				got, err := s.Targets(tab.Y, tc.typ)
				if tc.want.Error != nil {
					refused++
					if err == nil {
						t.Errorf("%s %q %v: targets %v, imbalanced-learn refuses: %s", tab.Name, c.Strategy, tc.typ, got, *tc.want.Error)
					} else if !errors.Is(err, learn.ErrParam) && !errors.Is(err, learn.ErrData) {
						t.Errorf("%s %q %v: %v wraps neither ErrParam nor ErrData", tab.Name, c.Strategy, tc.typ, err)
					}
					continue
				}
				checked++
				if err != nil {
					t.Errorf("%s %q %v: %v; imbalanced-learn: %v", tab.Name, c.Strategy, tc.typ, err, tc.want.Targets)
					continue
				}
				want := make([]Target, len(tc.want.Targets))
				for i, p := range tc.want.Targets {
					want[i] = Target{Class: p[0], N: p[1]}
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s %q %v: targets %v, imbalanced-learn %v", tab.Name, c.Strategy, tc.typ, got, want)
				}
			}
		}
	}
	t.Logf("imbalanced-learn %s: %d resolutions equal, %d refusals refused", g.Imblearn, checked, refused)
}

// TestSamplersGolden: the class counts after rus and smote equal
// imbalanced-learn's RandomUnderSampler and SMOTE, and tomek removes
// exactly the rows TomekLinks removes, for every strategy each accepts, on
// the golden tables; 1 and 3 workers give the same rows.
func TestSamplersGolden(t *testing.T) {
	ctx := context.Background()
	g := loadStrategyGolden(t)
	compared := 0
	for _, tab := range g.Tables {
		d := goldenData(tab.X, tab.Y)
		k := slices.Max(tab.Y) + 1
		twoClass := k == 2
		run := func(s Sampler, what string) (*learn.Data, []Origin) {
			t.Helper()
			out, o, err := s.(Tracer).Trace(ctx, d, learn.Env{Seed: 7, Workers: 1})
			if err != nil {
				t.Fatalf("%s %s: %v", tab.Name, what, err)
			}
			again, _, err := s.(Tracer).Trace(ctx, d, learn.Env{Seed: 7, Workers: 3})
			if err != nil || !bitEqualData(out, again) {
				t.Errorf("%s %s: 3 workers differ from 1: %v", tab.Name, what, err)
			}
			compared++
			return out, o
		}
		for _, c := range tab.Cases {
			if c.RUSCounts != nil {
				out, _ := run(&RUS{Strategy: c.Strategy}, "rus "+c.Strategy)
				if got := classCounts(out.Y, k); !slices.Equal(got, c.RUSCounts) {
					t.Errorf("%s rus %q: counts %v, imbalanced-learn %v", tab.Name, c.Strategy, got, c.RUSCounts)
				}
			}
			if c.SMOTECounts != nil {
				// On two classes a ratio that adds no row is a copy here and
				// an error in imbalanced-learn, so only its successes count.
				out, _ := run(&SMOTE{Strategy: c.Strategy, KNeighbors: tab.KNeighbors}, "smote "+c.Strategy)
				if got := classCounts(out.Y, k); !slices.Equal(got, c.SMOTECounts) {
					t.Errorf("%s smote %q: counts %v, imbalanced-learn %v", tab.Name, c.Strategy, got, c.SMOTECounts)
				}
			}
			if c.TomekRemoved != nil {
				_, o := run(&Tomek{Strategy: c.Strategy}, "tomek "+c.Strategy)
				var kept []int
				for _, r := range o {
					kept = append(kept, r.Row)
				}
				removed := []int{}
				for i := range tab.Y {
					if !slices.Contains(kept, i) {
						removed = append(removed, i)
					}
				}
				want := c.TomekRemoved
				if twoClass && c.Strategy == "auto" && tab.Name == "tie" {
					// Labels 0 and 1 with auto keep aer's two-class rule:
					// on a tie the majority end is label 0's, where
					// imbalanced-learn's minority is class 0 (doc.go).
					if !slices.Equal(want, []int{9}) {
						t.Fatalf("tie: imbalanced-learn removes %v, the test expects [9]", want)
					}
					want = []int{5}
				}
				if !slices.Equal(removed, want) {
					t.Errorf("%s tomek %q: removed %v, imbalanced-learn %v", tab.Name, c.Strategy, removed, want)
				}
			}
		}
	}
	if compared < 60 {
		t.Errorf("only %d sampler runs compared", compared)
	}
}

// multiBlobs is n[c] rows of class c around separate centres, classes
// interleaved, in dim dimensions, weighted when weighted.
func multiBlobs(n []int, dim int, seed uint64, weighted bool) *learn.Data {
	src := rng.New(seed)
	var y []int
	for c, k := range n {
		for range k {
			y = append(y, c)
		}
	}
	src.Shuffle(len(y), func(i, j int) { y[i], y[j] = y[j], y[i] })
	x := mat.NewDense(len(y), dim, nil)
	var w []float64
	if weighted {
		w = make([]float64, len(y))
	}
	for i, c := range y {
		for j := range dim {
			x.Set(i, j, src.NormFloat64()+1.5*math.Cos(float64(c+j)))
		}
		if w != nil {
			w[i] = 0.5 + src.Float64()
		}
	}
	return &learn.Data{X: x, Y: y, W: w}
}

// TestSMOTEMultiSegments: every synthetic row lies on the segment from a
// row of its class to one of that row's k nearest rows of the class, as
// Trace says, weighs its parents' mean weight, and the synthetic rows come
// after d's, classes in increasing order.
func TestSMOTEMultiSegments(t *testing.T) {
	ctx := context.Background()
	d := multiBlobs([]int{60, 9, 25, 14}, 3, 2, true)
	for _, k := range []int{1, 4} {
		s := &SMOTE{Strategy: "auto", KNeighbors: k}
		got, origins, err := s.Trace(ctx, d, learn.Env{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		if c := classCounts(got.Y, 4); !slices.Equal(c, []int{60, 60, 60, 60}) {
			t.Fatalf("k=%d: counts %v", k, c)
		}
		n := d.Rows()
		for i := range n {
			if !slices.Equal(got.X.RawRowView(i), d.X.RawRowView(i)) || got.Y[i] != d.Y[i] || got.W[i] != d.W[i] || origins[i].Row != i {
				t.Fatalf("k=%d: row %d changed", k, i)
			}
		}
		knn := map[int]map[int][]int{}
		for c := range 4 {
			knn[c] = bruteKNN(d, c, k)
		}
		for i := n; i < got.Rows(); i++ {
			if i > n && got.Y[i] < got.Y[i-1] {
				t.Fatalf("k=%d: row %d of class %d after class %d", k, i, got.Y[i], got.Y[i-1])
			}
			a, b, gap, ok := parents(d, knn[got.Y[i]], got.X.RawRowView(i))
			if !ok {
				t.Fatalf("k=%d: row %d (class %d) lies on no segment between rows of its class", k, i, got.Y[i])
			}
			o := origins[i]
			if o.Row != -1 || d.Y[o.A] != got.Y[i] || !slices.Contains(knn[got.Y[i]][o.A], o.B) {
				t.Fatalf("k=%d: row %d has origin %+v, not a class-%d row and one of its neighbours", k, i, o, got.Y[i])
			}
			if a != o.A || b != o.B || math.Abs(gap-o.Gap) > 1e-9 {
				// A point may lie on two segments only by accident; the
				// origin must be one of them.
				if !onSegment(d, o, got.X.RawRowView(i)) {
					t.Fatalf("k=%d: row %d is not at its origin %+v", k, i, o)
				}
			}
			if want := (d.W[o.A] + d.W[o.B]) / 2; got.W[i] != want {
				t.Errorf("k=%d: row %d weighs %v, want %v", k, i, got.W[i], want)
			}
		}
	}
}

// onSegment tells whether row is x_A + Gap·(x_B - x_A) exactly.
func onSegment(d *learn.Data, o Origin, row []float64) bool {
	for j, v := range row {
		a, b := d.X.At(o.A, j), d.X.At(o.B, j)
		if v != a+o.Gap*(b-a) {
			return false
		}
	}
	return true
}

// TestPerClassStreams: a class's draws do not depend on which other
// classes are resampled (each class draws from its own stream).
func TestPerClassStreams(t *testing.T) {
	ctx := context.Background()
	d := multiBlobs([]int{40, 30, 12, 20}, 2, 3, false)
	env := learn.Env{Seed: 11}
	classRowsOf := func(out *learn.Data, c int) [][]float64 {
		var rows [][]float64
		for i, y := range out.Y {
			if y == c {
				rows = append(rows, slices.Clone(out.X.RawRowView(i)))
			}
		}
		return rows
	}
	same := func(a, b [][]float64) bool { return slices.EqualFunc(a, b, slices.Equal[[]float64]) }
	one, err := (&RUS{Strategy: "1:10"}).Resample(ctx, d, env)
	if err != nil {
		t.Fatal(err)
	}
	three, err := (&RUS{Strategy: "0:12,1:10,3:5"}).Resample(ctx, d, env)
	if err != nil {
		t.Fatal(err)
	}
	if !same(classRowsOf(one, 1), classRowsOf(three, 1)) {
		t.Error("rus: class 1's rows depend on the other classes drawn")
	}
	if other, _ := (&RUS{Strategy: "1:10"}).Resample(ctx, d, learn.Env{Seed: 12}); same(classRowsOf(one, 1), classRowsOf(other, 1)) {
		t.Error("rus: seeds 11 and 12 draw the same rows")
	}
	one, err = (&SMOTE{Strategy: "2:30"}).Resample(ctx, d, env)
	if err != nil {
		t.Fatal(err)
	}
	three, err = (&SMOTE{Strategy: "auto"}).Resample(ctx, d, env)
	if err != nil {
		t.Fatal(err)
	}
	// Class 2 gets 18 rows from 2:30 and 28 from auto (40 rows): the first
	// 18 are the same draws.
	a, b := classRowsOf(one, 2), classRowsOf(three, 2)
	if len(a) != 30 || len(b) != 40 || !same(a, b[:30]) {
		t.Errorf("smote: class 2's rows depend on the other classes (%d and %d rows)", len(a), len(b))
	}
}

// naiveLinked is the multi-class Tomek link by its definition: each row's
// nearest other row by direct squared distances (ties to the smaller
// row), and the pairs of different labels that are each other's.
func naiveLinked(d *learn.Data) []bool {
	n := d.Rows()
	nn := make([]int, n)
	for i := range n {
		best := math.Inf(1)
		for j := range n {
			if j == i {
				continue
			}
			var s float64
			for c := range d.Cols() {
				v := d.X.At(i, c) - d.X.At(j, c)
				s += v * v
			}
			if s < best {
				best, nn[i] = s, j
			}
		}
	}
	linked := make([]bool, n)
	for i := range n {
		if d.Y[nn[i]] != d.Y[i] && nn[nn[i]] == i {
			linked[i] = true
		}
	}
	return linked
}

// TestLinkedRows: the multi-class links equal the definition's on random
// tables of 2 to 5 classes, and on two classes they are TomekLinks'.
func TestLinkedRows(t *testing.T) {
	for seed := range uint64(12) {
		k := 2 + int(seed%4)
		n := make([]int, k)
		for c := range n {
			n[c] = 5 + int((seed*7+uint64(c)*13)%40)
		}
		d := multiBlobs(n, 1+int(seed%3), seed, false)
		got, err := linkedRows(d.X, d.Y, 2)
		if err != nil {
			t.Fatal(err)
		}
		if want := naiveLinked(d); !slices.Equal(got, want) {
			t.Errorf("seed %d, %d classes: links differ from the definition", seed, k)
		}
		if k == 2 {
			links, err := TomekLinks(d.X, d.Y, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]bool, d.Rows())
			for _, l := range links {
				want[l.Minority], want[l.Majority] = true, true
			}
			if !slices.Equal(got, want) {
				t.Errorf("seed %d: two-class links differ from TomekLinks", seed)
			}
		}
	}
}

// TestSMOTETomekMulti: smote-tomek on several classes is SMOTE then Tomek
// with tomek_strategy.
func TestSMOTETomekMulti(t *testing.T) {
	ctx := context.Background()
	d := multiBlobs([]int{50, 12, 20}, 2, 4, false)
	env := learn.Env{Seed: 3}
	for _, ts := range []string{"", "auto", "2,", "not majority"} {
		st := &SMOTETomek{SMOTE: SMOTE{Strategy: "not majority"}, TomekStrategy: ts}
		got, err := st.Resample(ctx, d, env)
		if err != nil {
			t.Fatal(err)
		}
		over, _ := (&SMOTE{Strategy: "not majority"}).Resample(ctx, d, env)
		tomek := ts
		if tomek == "" {
			tomek = "all"
		}
		want, err := (&Tomek{Strategy: tomek}).Resample(ctx, over, env)
		if err != nil || !bitEqualData(got, want) {
			t.Errorf("tomek_strategy %q: smote-tomek differs from smote then tomek: %v", ts, err)
		}
		if ts == "" && got.Rows() >= over.Rows() {
			t.Errorf("no Tomek link removed from %d rows", over.Rows())
		}
	}
}

// TestStrategyBinaryUnchanged: on labels 0 and 1, the ratios and auto
// keep the two-class rule: auto equals ratio 1 row for row, and named
// forms other than auto reach the same counts.
func TestStrategyBinaryUnchanged(t *testing.T) {
	ctx := context.Background()
	d := blobs(200, 25, 3, 6, true)
	env := learn.Env{Seed: 4}
	for _, pair := range [][2]Sampler{
		{&RUS{Strategy: "auto"}, &RUS{}},
		{&SMOTE{Strategy: "auto"}, &SMOTE{}},
		{&Tomek{Strategy: "auto"}, &Tomek{}},
		{&Tomek{Strategy: "all"}, &Tomek{Strategy: "all"}},
		{&SMOTETomek{SMOTE: SMOTE{Strategy: "auto"}, TomekStrategy: "all"}, &SMOTETomek{}},
	} {
		a, err := pair[0].Resample(ctx, d, env)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := pair[1].Resample(ctx, d, env)
		if !bitEqualData(a, b) {
			t.Errorf("%s: auto differs from the default", pair[0].Name())
		}
	}
	for _, s := range []Sampler{&RUS{Strategy: "not minority"}, &RUS{Strategy: "majority"}, &RUS{Strategy: "0:25"}} {
		got, err := s.Resample(ctx, d, env)
		if err != nil || count(got.Y, 0) != 25 || count(got.Y, 1) != 25 {
			t.Errorf("%v: %v", s.Params(), err)
		}
	}
	for _, s := range []Sampler{&SMOTE{Strategy: "minority"}, &SMOTE{Strategy: "not majority"}, &SMOTE{Strategy: "1:200"}} {
		got, err := s.Resample(ctx, d, env)
		if err != nil || count(got.Y, 0) != 200 || count(got.Y, 1) != 200 {
			t.Errorf("%v: %v", s.Params(), err)
		}
	}
}

func TestParseStrategy(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"auto", "auto"},
		{" not minority ", "not minority"},
		{"not-majority", "not majority"},
		{"not_minority", "not minority"},
		{"0.5", "0.5"},
		{"1", "1"},
		{"0:10, 2:30", "0:10,2:30"},
		{"2,", "2,"},
		{"0,3", "0,3"},
		{"a:3", "a:3"}, // a class name, for a caller to map to its index
	} {
		s, err := ParseStrategy(c.in)
		if err != nil || s.String() != c.want {
			t.Errorf("ParseStrategy(%q) = %q, %v; want %q", c.in, s.String(), err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"", "empty"},
		{"0", "want a number in (0, 1] or auto"},
		{"2", `a list of the one class 2 is written "2,"`},
		{"1.5", "want a number in (0, 1] or auto"},
		{"NaN", "not one of its forms"},
		{"balanced", "not one of its forms"},
		{"0:5,1", "mixes CLASS:N counts and a list"},
		{"0:5,0:6", "names class 0 twice"},
		{"0:-1", "cannot be negative"},
		{"0:x", `the count "x" is not a whole number`},
		{":4", "item 1 names no class"},
		{"0:3000000000", "more than a sampler makes"},
	} {
		_, err := ParseStrategy(c.in)
		if !errors.Is(err, learn.ErrParam) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseStrategy(%q): %v, want an ErrParam containing %q", c.in, err, c.want)
		}
	}
}

// TestStrategyErrors: what Targets and the samplers say about strategies
// the data does not fit.
func TestStrategyErrors(t *testing.T) {
	ctx := context.Background()
	y := []int{0, 0, 0, 0, 1, 1, 2, 2, 2}
	for _, c := range []struct {
		s    string
		typ  SamplingType
		is   error
		want string
	}{
		{"0:5", UnderSampling, learn.ErrData, "asks for 5 rows of class 0, which has 4: under-sampling only removes rows"},
		{"2:2", OverSampling, learn.ErrData, "asks for 2 rows of class 2, which has 3: over-sampling only adds rows"},
		{"3:2", UnderSampling, learn.ErrData, "names class 3, which has no rows in the data (0 (4 rows), 1 (2 rows), 2 (3 rows))"},
		{"0,x", Cleaning, learn.ErrParam, `class "x" is not a class index`},
		{"0.5", UnderSampling, learn.ErrData, "is for two classes and the data has 3"},
		{"0.5", Cleaning, learn.ErrParam, "a ratio cannot be used with cleaning"},
		{"majority", OverSampling, learn.ErrParam, "majority cannot be used with over-sampling"},
		{"minority", UnderSampling, learn.ErrParam, "minority cannot be used with under-sampling"},
		{"minority", Cleaning, learn.ErrParam, "minority cannot be used with clean-sampling"},
		{"0:2", Cleaning, learn.ErrParam, "per-class counts cannot be used with cleaning"},
		{"0,1", OverSampling, learn.ErrParam, "a list of classes is for cleaning only"},
	} {
		s, err := ParseStrategy(c.s)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Targets(y, c.typ)
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %v: %v, want %v containing %q", c.s, c.typ, err, c.is, c.want)
		}
	}
	if _, err := (Strategy{Name: "auto"}).Targets([]int{2, 2}, OverSampling); !errors.Is(err, learn.ErrData) || !strings.Contains(err.Error(), "more than one class") {
		t.Errorf("one class: %v", err)
	}
	if _, err := (Strategy{Name: "auto"}).Targets([]int{0, -1}, OverSampling); !errors.Is(err, learn.ErrData) || !strings.Contains(err.Error(), "row 2: label -1 is not a class index") {
		t.Errorf("negative label: %v", err)
	}

	d := multiBlobs([]int{30, 5, 12}, 2, 1, false)
	nan := multiBlobs([]int{30, 8, 12}, 2, 1, false)
	nanRow := slices.Index(nan.Y, 1)
	nan.X.Set(nanRow, 0, math.NaN())
	neg := multiBlobs([]int{30, 8, 12}, 2, 1, false)
	neg.Y[3] = -2
	for _, c := range []struct {
		s    Sampler
		d    *learn.Data
		is   error
		want string
	}{
		{&SMOTE{Strategy: "auto"}, d, learn.ErrData, "k_neighbors=5 needs at least 6 rows of class 1, the data has 5"},
		{&SMOTE{Strategy: "auto"}, nan, learn.ErrData, "is missing"},
		{&SMOTE{Strategy: "0:31"}, nan, nil, ""}, // class 1's missing value is not used
		{&SMOTE{}, d, learn.ErrData, "is not 0 or 1, and sampling_strategy 1, a minority to majority ratio, is for two classes; the data has 3"},
		{&RUS{Ratio: 0.5}, d, learn.ErrData, "is not 0 or 1, and sampling_strategy 0.5"},
		{&RUS{Strategy: "1:6"}, d, learn.ErrData, "asks for 6 rows of class 1, which has 5"},
		{&RUS{Strategy: "auto"}, neg, learn.ErrData, "rus: invalid data: row 4: label -2 is not a class index"},
		{&Tomek{}, d, learn.ErrData, "the default sampling_strategy is the two-class rule: for more classes, set it"},
		{&Tomek{Strategy: "auto"}, nan, learn.ErrData, "is missing"},
		{&Tomek{Strategy: "bogus"}, d, learn.ErrParam, "tomek: invalid parameter"},
		{&RUS{Strategy: "minority"}, d, learn.ErrParam, "minority cannot be used with under-sampling"},
	} {
		_, err := c.s.Resample(ctx, c.d, learn.Env{})
		if c.is == nil {
			if err != nil {
				t.Errorf("%s %v: %v", c.s.Name(), c.s.Params(), err)
			}
			continue
		}
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v, want %v containing %q", c.s.Name(), c.s.Params(), err, c.is, c.want)
		}
	}
}

// TestStrategyParams: Set takes every form a sampler's type allows, shows
// it in canonical form, and refuses the others with ErrParam.
func TestStrategyParams(t *testing.T) {
	for _, c := range []struct {
		sampler, key, value, shown string
	}{
		{"rus", "sampling_strategy", "not-minority", "not minority"},
		{"rus", "sampling_strategy", "0:10, 02:30", "0:10,2:30"},
		{"rus", "sampling_strategy", "auto", "auto"},
		{"rus", "sampling_strategy", "0.25", "0.25"},
		{"smote", "sampling_strategy", "minority", "minority"},
		{"smote", "sampling_strategy", "1:100", "1:100"},
		{"tomek", "sampling_strategy", "not majority", "not majority"},
		{"tomek", "sampling_strategy", "3,", "3,"},
		{"tomek", "sampling_strategy", "0, 2", "0,2"},
		{"smote-tomek", "sampling_strategy", "all", "all"},
		{"smote-tomek", "tomek_strategy", "1,2", "1,2"},
	} {
		s, _ := New(c.sampler)
		if err := s.Set(c.key, c.value); err != nil {
			t.Errorf("%s %s=%q: %v", c.sampler, c.key, c.value, err)
			continue
		}
		if got := learn.ParamMap(s.Params())[c.key]; got != c.shown {
			t.Errorf("%s %s=%q shows %q, want %q", c.sampler, c.key, c.value, got, c.shown)
		}
	}
	for _, c := range []struct {
		sampler, key, value, want string
	}{
		{"rus", "sampling_strategy", "minority", "minority cannot be used with under-sampling"},
		{"rus", "sampling_strategy", "0,1", "a list of classes is for cleaning only"},
		{"smote", "sampling_strategy", "majority", "majority cannot be used with over-sampling"},
		{"tomek", "sampling_strategy", "0.5", "a ratio cannot be used with cleaning"},
		{"tomek", "sampling_strategy", "0:4", "per-class counts cannot be used with cleaning"},
		{"smote", "sampling_strategy", "b:4", `class "b" is not a class index`},
		{"smote", "sampling_strategy", "1:4,01:5", "names class 1 twice"},
		{"smote-tomek", "tomek_strategy", "minority", "minority cannot be used with clean-sampling"},
	} {
		s, _ := New(c.sampler)
		if err := s.Set(c.key, c.value); !errors.Is(err, learn.ErrParam) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s=%q: %v, want an ErrParam containing %q", c.sampler, c.key, c.value, err, c.want)
		}
	}
	// A ratio after a strategy goes back to the two-class rule.
	r := &RUS{}
	if r.Set("sampling_strategy", "not majority") != nil || r.Set("sampling_strategy", "0.5") != nil || r.Strategy != "" || r.Ratio != 0.5 {
		t.Errorf("rus after not majority then 0.5: %+v", r)
	}
}

// FuzzParseStrategy: ParseStrategy never panics, refuses with ErrParam,
// and what it reads writes back to itself; Targets never panics.
func FuzzParseStrategy(f *testing.F) {
	for _, s := range []string{"auto", "0.5", "0:3,2:7", "1,2", "2,", "not-minority", ":", ",", "0:", "1e-300", "0:2147483647"} {
		f.Add(s)
	}
	y := []int{0, 0, 0, 1, 1, 2, 2, 2, 2, 2}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseStrategy(text)
		if err != nil {
			if !errors.Is(err, learn.ErrParam) {
				t.Fatalf("%q: %v does not wrap ErrParam", text, err)
			}
			return
		}
		again, err := ParseStrategy(s.String())
		if err != nil || again.String() != s.String() {
			t.Fatalf("%q reads as %q, which reads back as %q: %v", text, s.String(), again.String(), err)
		}
		for _, typ := range []SamplingType{OverSampling, UnderSampling, Cleaning} {
			if _, err := s.Targets(y, typ); err != nil && !errors.Is(err, learn.ErrParam) && !errors.Is(err, learn.ErrData) {
				t.Fatalf("%q %v: %v", text, typ, err)
			}
		}
	})
}

func ExampleStrategy_Targets() {
	// Three classes: 0 has 6 rows, 1 has 2, 2 has 4.
	y := []int{0, 0, 1, 0, 2, 0, 2, 0, 1, 2, 0, 2}
	for _, text := range []string{"auto", "not minority", "0:3,2:3"} {
		s, _ := ParseStrategy(text)
		under, _ := s.Targets(y, UnderSampling)
		over, err := s.Targets(y, OverSampling)
		fmt.Printf("%-12s keep %v; add %v %v\n", text, under, over, err != nil)
	}
	// Output:
	// auto         keep [{0 2} {2 2}]; add [{1 4} {2 2}] false
	// not minority keep [{0 2} {2 2}]; add [{0 0} {2 2}] false
	// 0:3,2:3      keep [{0 3} {2 3}]; add [] true
}

func ExampleRUS_classes() {
	// Labels 0, 1 and 2: under-sample every class but the smallest to its
	// size, then only class 0 to 3 rows.
	d := multiBlobs([]int{8, 2, 5}, 2, 1, false)
	for _, strategy := range []string{"auto", "0:3"} {
		s := &RUS{Strategy: strategy}
		out, err := s.Resample(context.Background(), d, learn.Env{Seed: 1})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(strategy, classCounts(out.Y, 3))
	}
	// Output:
	// auto [2 2 2]
	// 0:3 [3 2 5]
}

// TestStrategyByName: a strategy's classes are labels first, as
// imbalanced-learn reads a dictionary's keys; a number is an index only
// when no label is a whole number; anything else is refused with the
// classes listed.
func TestStrategyByName(t *testing.T) {
	cases := []struct {
		strategy string
		classes  []string
		want     string // "" for an error
		err      string
	}{
		{"1:10", []string{"1", "2", "3", "4"}, "0:10", ""},
		{"4:10,2:5", []string{"1", "2", "3", "4"}, "3:10,1:5", ""},
		{"3,", []string{"7", "3"}, "1,", ""},
		{"0:10", []string{"1", "2", "3", "4"}, "", `"0" is not one of the classes ["1" "2" "3" "4"]`},
		{"van:50, opel:60", []string{"bus", "opel", "saab", "van"}, "3:50,1:60", ""},
		{"3:50,1:60", []string{"bus", "opel", "saab", "van"}, "3:50,1:60", ""},
		{"4:50", []string{"bus", "opel", "saab", "van"}, "", "or their indices 0 to 3"},
		{"van:5,3:6", []string{"bus", "opel", "saab", "van"}, "", `names class "van" twice`},
		{"auto", []string{"1", "2", "3"}, "auto", ""},
		{"0.5", []string{"a", "b"}, "0.5", ""},
	}
	for _, c := range cases {
		st, err := ParseStrategy(c.strategy)
		if err != nil {
			t.Fatalf("%s: %v", c.strategy, err)
		}
		got, err := st.ByName(c.classes)
		switch {
		case c.want == "" && (err == nil || !errors.Is(err, learn.ErrParam) || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s on %q: %v, want an ErrParam error with %q", c.strategy, c.classes, err, c.err)
		case c.want != "" && (err != nil || got.String() != c.want):
			t.Errorf("%s on %q: %v %v, want %s", c.strategy, c.classes, got, err, c.want)
		}
	}
	// Resolved, "1:10" on labels 1 to 4 keeps ten rows of label 1 (index
	// 0), not of label 2.
	y := slices.Concat(slices.Repeat([]int{0}, 84), slices.Repeat([]int{1}, 120), slices.Repeat([]int{2}, 200), slices.Repeat([]int{3}, 300))
	st, _ := ParseStrategy("1:10")
	st, _ = st.ByName([]string{"1", "2", "3", "4"})
	got, err := st.Targets(y, UnderSampling)
	if err != nil || !slices.Equal(got, []Target{{Class: 0, N: 10}}) {
		t.Errorf("targets %v %v, want class 0 to 10 rows", got, err)
	}
}
