package contaminate

import (
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// data returns n rows of 3 features, the first `pos` of class 1.
func data(n, pos int) (*mat.Dense, []int) {
	x := mat.NewDense(n, 3, nil)
	y := make([]int, n)
	for i := range n {
		x.Set(i, 0, float64(i))
		x.Set(i, 1, float64(i%7)*0.5)
		x.Set(i, 2, 3)
		if i < pos {
			y[i] = 1
		}
	}
	return x, y
}

func TestParse(t *testing.T) {
	got, err := Parse("none, flip:0.05:0.1,flip-minority:0.2,outliers:0,flip:0.1, outliers:0.5")
	if err != nil {
		t.Fatal(err)
	}
	want := []Condition{{}, {Flip, 0.05}, {Flip, 0.1}, {FlipMinority, 0.2}, {Outliers, 0.5}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	var names []string
	for _, c := range got {
		names = append(names, c.String()+"|"+c.Dir())
	}
	if w := []string{"none|none", "flip:0.05|flip-0.05", "flip:0.1|flip-0.1", "flip-minority:0.2|flip-minority-0.2", "outliers:0.5|outliers-0.5"}; !slices.Equal(names, w) {
		t.Errorf("names %v, want %v", names, w)
	}
	for _, bad := range []string{"", "flip", "flip:", "flip:0.6", "flip:-0.1", "flip:NaN", "noise:0.1", "flip:0.1,", "none:0.1", "flip:1e400", ",", "flip:0.1:x"} {
		if _, err := Parse(bad); !errors.Is(err, ErrSpec) {
			t.Errorf("Parse(%q): %v, want ErrSpec", bad, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"none", "flip:0.05:0.1", "flip-minority:0.2,outliers:0.1", "flip:", "outliers:0.5,,", "x:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrSpec) {
				t.Fatalf("%q: error %v is not ErrSpec", s, err)
			}
			return
		}
		if len(cs) == 0 {
			t.Fatalf("%q: no conditions and no error", s)
		}
		for i, c := range cs {
			if c.Level < 0 || c.Level > MaxLevel || (c.Level == 0) != (c.Kind == "") {
				t.Fatalf("%q: condition %+v out of range", s, c)
			}
			back, err := ParseCondition(c.String())
			if err != nil || back != c {
				t.Fatalf("%q: %v does not read back (%v, %v)", s, c, back, err)
			}
			if slices.Contains(cs[:i], c) {
				t.Fatalf("%q: %v twice", s, c)
			}
		}
	})
}

// Each kind changes exactly round(p * n) rows of each class (of the
// minority for flip-minority), and only what it says it changes.
func TestCounts(t *testing.T) {
	for _, p := range []float64{0.05, 0.1, 0.2, 0.5} {
		for _, kind := range Kinds {
			x, y := data(203, 29)
			x0, y0 := mat.DenseCopyOf(x), slices.Clone(y)
			changed, err := Apply(Condition{kind, p}, x, y, 7)
			if err != nil {
				t.Fatal(err)
			}
			perClass := [2]int{}
			for _, i := range changed {
				perClass[y0[i]]++
			}
			want := [2]int{Count(p, 174), Count(p, 29)}
			if kind == FlipMinority {
				want[0] = 0
			}
			if perClass != want || !slices.IsSorted(changed) {
				t.Errorf("%s:%g: changed per class %v, want %v", kind, p, perClass, want)
			}
			for i := range y {
				rowChanged := !mat.Equal(x0.RowView(i), x.RowView(i))
				labelChanged := y[i] != y0[i]
				in := slices.Contains(changed, i)
				switch kind {
				case Outliers:
					if labelChanged || rowChanged != in {
						t.Fatalf("%s:%g row %d: label changed %v, row changed %v, listed %v", kind, p, i, labelChanged, rowChanged, in)
					}
				default:
					if rowChanged || labelChanged != in {
						t.Fatalf("%s:%g row %d: label changed %v, row changed %v, listed %v", kind, p, i, labelChanged, rowChanged, in)
					}
					if kind == FlipMinority && labelChanged && y[i] != 0 {
						t.Fatalf("minority row %d relabelled %d, not 0", i, y[i])
					}
				}
			}
		}
	}
	if Count(0.05, 10) != 1 || Count(0.05, 9) != 0 || Count(0.1, 25) != 3 {
		t.Error("Count does not round half away from zero")
	}
}

// An outlier's every feature is its mean plus or minus 10 standard
// deviations of the rows given (a constant feature stays at its value).
func TestOutlierValues(t *testing.T) {
	x, y := data(100, 10)
	x.Set(5, 1, math.NaN())
	mean, sd := moments(x)
	if math.Abs(mean[0]-49.5) > 1e-12 || math.Abs(sd[0]-math.Sqrt((100*100-1)/12.0)) > 1e-9 || sd[2] != 0 {
		t.Fatalf("moments %v %v", mean, sd)
	}
	changed, err := Apply(Condition{Outliers, 0.2}, x, y, 3)
	if err != nil {
		t.Fatal(err)
	}
	signs := map[float64]int{}
	for _, i := range changed {
		for j := range 3 {
			d := (x.At(i, j) - mean[j])
			if sd[j] == 0 {
				if d != 0 {
					t.Fatalf("constant feature moved: %g", d)
				}
				continue
			}
			if math.Abs(math.Abs(d)/sd[j]-OutlierSDs) > 1e-9 {
				t.Fatalf("row %d feature %d is %g sd from its mean", i, j, d/sd[j])
			}
			signs[math.Copysign(1, d)]++
		}
	}
	if signs[1] == 0 || signs[-1] == 0 {
		t.Errorf("signs %v: want both", signs)
	}
}

// The same seed gives the same rows; another seed others; the rows of a
// lower level are among those of a higher one.
func TestDeterministicNested(t *testing.T) {
	for _, kind := range Kinds {
		run := func(p float64, seed uint64) ([]int, []int, *mat.Dense) {
			x, y := data(300, 40)
			ch, err := Apply(Condition{kind, p}, x, y, seed)
			if err != nil {
				t.Fatal(err)
			}
			return ch, y, x
		}
		a, ya, xa := run(0.1, 1)
		b, yb, xb := run(0.1, 1)
		if !slices.Equal(a, b) || !slices.Equal(ya, yb) || !mat.Equal(xa, xb) {
			t.Errorf("%s: same seed, different contamination", kind)
		}
		if c, _, _ := run(0.1, 2); slices.Equal(a, c) {
			t.Errorf("%s: seeds 1 and 2 contaminate the same rows", kind)
		}
		hi, yhi, xhi := run(0.2, 1)
		for _, i := range a {
			if !slices.Contains(hi, i) || ya[i] != yhi[i] || !mat.Equal(xa.RowView(i), xhi.RowView(i)) {
				t.Fatalf("%s: row %d of level 0.1 is not contaminated alike at 0.2", kind, i)
			}
		}
	}
}

// Of three classes, a flipped row gets one of the others, each of them
// for some rows.
func TestFlipClasses(t *testing.T) {
	x := mat.NewDense(300, 1, nil)
	y := make([]int, 300)
	for i := range y {
		y[i] = i % 3
	}
	y0 := slices.Clone(y)
	changed, err := Apply(Condition{Flip, 0.5}, x, y, 4)
	if err != nil || len(changed) != 150 {
		t.Fatalf("%d changed, %v", len(changed), err)
	}
	moves := map[[2]int]int{}
	for _, i := range changed {
		if y[i] == y0[i] {
			t.Fatalf("row %d flipped to its own class", i)
		}
		moves[[2]int{y0[i], y[i]}]++
	}
	if len(moves) != 6 {
		t.Errorf("moves %v: want all 6", moves)
	}
}

func TestApplyErrors(t *testing.T) {
	x, y := data(10, 2)
	if ch, err := Apply(Condition{}, x, y, 0); ch != nil || err != nil {
		t.Error("the clean condition changed something")
	}
	if _, err := Apply(Condition{Flip, 0.1}, x, y[:5], 0); err == nil {
		t.Error("rows and labels of different lengths accepted")
	}
	if _, err := Apply(Condition{"noise", 0.1}, x, y, 0); !errors.Is(err, ErrSpec) {
		t.Errorf("unknown kind: %v", err)
	}
	if _, err := Apply(Condition{Flip, 0.9}, x, y, 0); !errors.Is(err, ErrSpec) {
		t.Errorf("level 0.9: %v", err)
	}
	y[3] = -1
	if _, err := Apply(Condition{Flip, 0.1}, x, y, 0); err == nil {
		t.Error("negative label accepted")
	}
	one := make([]int, 10)
	if ch, err := Apply(Condition{FlipMinority, 0.5}, x, one, 0); ch != nil || err != nil {
		t.Errorf("one class: %v %v", ch, err)
	}
}
