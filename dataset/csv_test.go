package dataset

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer/internal/sharedtest"
)

func read(t *testing.T, text string, opt Options) (*Dataset, error) {
	t.Helper()
	return Read(strings.NewReader(text), "t.csv", opt)
}

func TestReadBasic(t *testing.T) {
	text := "a,b,split,label\n1,2,train,no\n3,NA,test,yes\n5,?,valid,no\n7,,train,no\n9,1e3,test,yes\n"
	d, err := read(t, text, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.Features, ","); got != "a,b" {
		t.Errorf("features = %s", got)
	}
	if !slices.Equal(d.Classes, []string{"no", "yes"}) {
		t.Errorf("classes = %q, want rarer class yes positive", d.Classes)
	}
	wantY := []int{0, 1, 0, 0, 1}
	for i, y := range wantY {
		if d.Y[i] != y {
			t.Fatalf("Y = %v, want %v", d.Y, wantY)
		}
	}
	if d.Rows() != 5 || d.Cols() != 2 {
		t.Fatalf("dims %d x %d", d.Rows(), d.Cols())
	}
	if d.MissingByColumn[0] != 0 || d.MissingByColumn[1] != 3 || d.Missing() != 3 {
		t.Errorf("missing = %v", d.MissingByColumn)
	}
	if !math.IsNaN(d.X.At(1, 1)) || d.X.At(4, 1) != 1000 {
		t.Errorf("values: %v %v", d.X.At(1, 1), d.X.At(4, 1))
	}
	if strings.Join(d.Split, ",") != "train,test,valid,train,test" {
		t.Errorf("split = %v", d.Split)
	}
	tr, va, te, err := d.SplitIndices()
	if err != nil || len(tr) != 2 || len(va) != 1 || len(te) != 2 {
		t.Errorf("SplitIndices = %v %v %v %v", tr, va, te, err)
	}
	if n := d.ClassCounts(); n[0] != 3 || n[1] != 2 {
		t.Errorf("counts %d %d", n[0], n[1])
	}
}

func TestLabelRules(t *testing.T) {
	body := "x,y,cls\n1,0,b\n2,1,a\n3,0,a\n4,1,a\n5,0,b\n"
	cases := []struct {
		name string
		opt  Options
		want []string
		y0   int
	}{
		{"last column, rarer positive", Options{}, []string{"a", "b"}, 1},
		{"explicit positive", Options{Positive: "a"}, []string{"b", "a"}, 0},
		{"fixed classes reversed", Options{Classes: []string{"a", "b"}}, []string{"a", "b"}, 1},
		{"fixed classes", Options{Classes: []string{"b", "a"}}, []string{"b", "a"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := read(t, body, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(d.Classes, c.want) || d.Y[0] != c.y0 {
				t.Errorf("classes %q y0 %d, want %q %d", d.Classes, d.Y[0], c.want, c.y0)
			}
		})
	}
	d, err := read(t, "x,y,cls\n1,0,2\n2,1,3\n3,0,4\n4,1,5\n5,0,6\n", Options{Label: "y"})
	if err != nil || !slices.Equal(d.Classes, []string{"0", "1"}) || strings.Join(d.Features, ",") != "x,cls" {
		t.Errorf("label by name: %v %q %v", err, d.Classes, d.Features)
	}
	// Numeric labels in different spellings are one class; ties pick "1".
	d, err = read(t, "f,label\n1,1.0\n2,0\n3,+1\n4,0.0\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Classes, []string{"0", "1"}) || d.Y[0] != 1 || d.Y[1] != 0 || d.Y[2] != 1 {
		t.Errorf("classes %q Y %v", d.Classes, d.Y)
	}
}

func TestUnlabeledAndOptional(t *testing.T) {
	d, err := read(t, "a,b\n1,2\n3,4\n", Options{LabelOptional: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Y != nil || d.Cols() != 2 {
		t.Errorf("optional label absent: Y=%v cols=%d", d.Y, d.Cols())
	}
	d, err = read(t, "a,label\n1,0\n3,1\n", Options{LabelOptional: true, AllowOneClass: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Y == nil || d.Cols() != 1 {
		t.Errorf("optional label present: Y=%v cols=%d", d.Y, d.Cols())
	}
	d, err = read(t, "a,b\n1,2\n", Options{Unlabeled: true})
	if err != nil || d.Cols() != 2 || d.Y != nil {
		t.Errorf("unlabeled: %v %v", d, err)
	}
}

// TestBadInputs checks that every malformed input gives an *Error naming
// the problem and, where there is one, the line and column.
func TestBadInputs(t *testing.T) {
	ok := "a,b,label\n1,2,0\n3,4,1\n5,6,1\n"
	_ = ok
	cases := []struct {
		name string
		text string
		opt  Options
		want error
		msg  string // substring of the message
	}{
		{"empty file", "", Options{}, ErrEmpty, "t.csv: empty file"},
		{"header only", "a,b,label\n", Options{}, ErrNoRows, "no data rows"},
		{"ragged row", "a,b,label\n1,2,0\n3,1\n4,5,1\n", Options{}, ErrRagged, "line 3: wrong number of fields (2 fields, the header has 3)"},
		{"non-numeric", "a,mcg,label\n1,2,0\n3,abc,1\n4,5,1\n", Options{}, ErrNotNumber, `line 3, column "mcg": "abc": not a number`},
		{"plus inf", "a,b,label\n1,+Inf,0\n3,4,1\n4,5,1\n", Options{}, ErrInfinite, `line 2, column "b": "+Inf": infinite value`},
		{"minus inf", "a,b,label\n1,2,0\n3,-inf,1\n4,5,1\n", Options{}, ErrInfinite, "line 3"},
		{"overflow", "a,b,label\n1,1e999,0\n3,4,1\n4,5,1\n", Options{}, ErrInfinite, "out of float64 range"},
		{"third class", "a,label\n1,0\n2,1\n3,2\n", Options{}, ErrThirdClass, `line 4, column "label": "2": more than two classes (already saw "0" and "1")`},
		{"single class", "a,label\n1,0\n2,0\n", Options{}, ErrOneClass, "only one class"},
		{"one minority row", "a,label\n1,0\n2,0\n3,1\n", Options{}, ErrFewMinority, "found 1"},
		{"no features", "label\n0\n1\n1\n", Options{}, ErrNoFeatures, "no feature columns"},
		{"only split and label", "split,label\ntrain,0\ntest,1\n", Options{}, ErrNoFeatures, ""},
		{"duplicate name", "a,b,a,label\n1,2,3,0\n", Options{}, ErrDuplicate, `line 1, column "a": duplicate column name (fields 1 and 3)`},
		{"empty name", "a,,label\n1,2,0\n", Options{}, ErrEmptyName, "field 2"},
		{"missing label", "a,label\n1,0\n2,\n3,1\n", Options{}, ErrMissingLabel, "line 3"},
		{"label not found", "a,b\n1,0\n", Options{Label: "y"}, ErrNoLabel, `column "y": label column not found`},
		{"unknown positive", "a,label\n1,0\n2,1\n3,1\n", Options{Positive: "yes"}, ErrUnknownClass, "not in the file"},
		{"unknown class for model", "a,label\n1,0\n2,2\n", Options{Classes: []string{"0", "1"}}, ErrUnknownClass, "line 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := read(t, c.text, c.opt)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("error %q is not %v", err, c.want)
			}
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("error %T is not *Error", err)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("message %q lacks %q", err.Error(), c.msg)
			}
		})
	}
	// A quoting error from encoding/csv keeps its line.
	_, err := read(t, "a,label\n1,0\n\"2,1\n", Options{})
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("bad quote: %v", err)
	}
}

func TestWriteCSVRoundTrip(t *testing.T) {
	text := "f1,f 2,split,target\n0.1,-3e-300,train,pos\n1.0000000000000002,,test,neg\n5e-324,7,valid,neg\n12345678.9,1,train,pos\n"
	d, err := read(t, text, Options{Label: "target", Positive: "pos"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, d); err != nil {
		t.Fatal(err)
	}
	d2, err := Read(bytes.NewReader(buf.Bytes()), "round.csv", Options{Label: "target", Positive: "pos"})
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	for i := range d.Rows() {
		for j := range d.Cols() {
			a, b := d.X.At(i, j), d2.X.At(i, j)
			if math.Float64bits(a) != math.Float64bits(b) && !(math.IsNaN(a) && math.IsNaN(b)) {
				t.Errorf("(%d,%d): %v != %v", i, j, a, b)
			}
		}
		if d.Y[i] != d2.Y[i] || d.Split[i] != d2.Split[i] {
			t.Errorf("row %d label/split differ", i)
		}
	}
	if !slices.Equal(d2.Classes, d.Classes) {
		t.Errorf("classes %q vs %q", d2.Classes, d.Classes)
	}
}

// Weights are written in their place in the file (after the split
// column, before the label, for a table built otherwise), and read back
// exactly.
func TestWriteCSVWeights(t *testing.T) {
	text := "a,wt,split,label\n1,0.1,train,0\n2,3,test,1\n3,0,train,1\n4,2.5,valid,0\n5,1,train,0\n"
	d, err := read(t, text, Options{Weight: "wt"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, d); err != nil {
		t.Fatal(err)
	}
	if want := text; buf.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
	d2, err := Read(&buf, "again.csv", Options{Weight: "wt"})
	if err != nil || !slices.Equal(d2.W, d.W) || !slices.Equal(d2.Y, d.Y) {
		t.Errorf("read back weights %v, labels %v (%v)", d2.W, d2.Y, err)
	}
	d.WeightColumn, d.Columns = "", nil
	buf.Reset()
	WriteCSV(&buf, d)
	if !strings.HasPrefix(buf.String(), "a,split,weight,label\n") {
		t.Errorf("unnamed weights: %q", buf.String())
	}
}

func TestMatrixSchema(t *testing.T) {
	d, err := read(t, "a,b,c,label\n1,2,3,0\n4,5,6,1\n7,8,9,1\n0,0,0,0\n0,0,0,0\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := d.Matrix([]string{"c", "a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if m.At(1, 0) != 6 || m.At(1, 1) != 4 || m.At(2, 2) != 8 {
		t.Errorf("reordered matrix wrong: %v", m)
	}
	_, err = d.Matrix([]string{"a", "b", "z"})
	if !errors.Is(err, ErrColumns) || !strings.Contains(err.Error(), `missing "z"; unexpected "c"`) {
		t.Errorf("schema mismatch error: %v", err)
	}
}

func TestSubset(t *testing.T) {
	d, err := read(t, "a,b,label\n1,2,0\n3,,1\n5,6,1\n7,8,0\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := d.Subset([]int{3, 1})
	if s.Rows() != 2 || s.X.At(0, 0) != 7 || s.Y[0] != 0 || s.Y[1] != 1 || s.MissingByColumn[1] != 1 {
		t.Errorf("subset wrong: %v %v %v", s.X, s.Y, s.MissingByColumn)
	}
	s.X.Set(0, 0, 100)
	if d.X.At(3, 0) != 7 {
		t.Error("subset shares storage with the original")
	}
}

func sharedDir(tb testing.TB, sub string) string { return sharedtest.Path(tb, sub) }

// TestSharedDatasets loads every shared dataset and checks its shape and
// class counts against MANIFEST.md.
func TestSharedDatasets(t *testing.T) {
	dir := sharedDir(t, "datasets")
	want := map[string][3]int{ // rows, features, minority
		"bioassay": {4279, 144, 60}, "abalone_19": {4177, 10, 32}, "ecoli": {336, 7, 35},
		"us_crime": {1994, 100, 150}, "wine_quality": {4898, 11, 183}, "scene": {2407, 294, 177},
		"car_eval_34": {1728, 21, 134}, "gmm10": {8000, 15, 100},
	}
	for name, w := range want {
		d, err := Load(filepath.Join(dir, name+".csv"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		pos := d.ClassCounts()[1]
		if d.Rows() != w[0] || d.Cols() != w[1] || pos != w[2] || !slices.Equal(d.Classes, []string{"0", "1"}) {
			t.Errorf("%s: %d rows, %d features, %d minority, classes %q; want %v", name, d.Rows(), d.Cols(), pos, d.Classes, w)
		}
		if name == "bioassay" {
			tr, _, te, err := d.SplitIndices()
			if err != nil || len(tr) != 3423 || len(te) != 856 {
				t.Errorf("bioassay split: %d/%d %v", len(tr), len(te), err)
			}
		}
	}
}

func BenchmarkLoadScene(b *testing.B) {
	path := filepath.Join(sharedDir(b, "datasets"), "scene.csv")
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	for b.Loop() {
		if _, err := Load(path, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadBioassay(b *testing.B) {
	path := filepath.Join(sharedDir(b, "datasets"), "bioassay.csv")
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	for b.Loop() {
		if _, err := Load(path, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzRead(f *testing.F) {
	seeds := []string{
		"a,b,label\n1,2,0\n3,4,1\n5,6,1\n",
		"a,split,label\n1,train,x\n2,test,y\n3,valid,y\n",
		"a,b\n1,NA\n?,3\n",
		"\"q,1\",label\n\"1\",0\n2,1\n3,1\n",
		"a,label\n1e308,0\n-1e-308,1\n0x1p-2,1\n",
		"",
		"a,a\n",
	}
	for _, s := range seeds {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, text string, optional bool) {
		d, err := Read(strings.NewReader(text), "fuzz.csv", Options{LabelOptional: optional})
		if err != nil {
			var de *Error
			if !errors.As(err, &de) && !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error without location: %v", err)
			}
			return
		}
		if d.Rows() < 1 || d.Cols() < 1 {
			t.Fatalf("accepted empty table: %d x %d", d.Rows(), d.Cols())
		}
		r, c := d.X.Dims()
		for i := range r {
			for j := range c {
				if math.IsInf(d.X.At(i, j), 0) {
					t.Fatal("infinite value accepted")
				}
			}
		}
		if d.Y != nil {
			if len(d.Y) != r {
				t.Fatal("labels and rows differ")
			}
			pos := d.ClassCounts()[1]
			if pos < 2 {
				t.Fatalf("accepted %d positive rows", pos)
			}
		}
		// Whatever was read writes back and reads again to the same table.
		var buf bytes.Buffer
		if err := WriteCSV(&buf, d); err != nil {
			t.Fatal(err)
		}
		opt := Options{Label: d.Label, Positive: d.LabelName(1), Unlabeled: d.Y == nil}
		if d.Label == "" {
			opt.Label = ""
		}
		d2, err := Read(&buf, "again.csv", opt)
		if err != nil {
			t.Fatalf("re-read failed: %v\n%q", err, buf.String())
		}
		if d2.Rows() != r || d2.Cols() != c {
			t.Fatalf("re-read shape %dx%d vs %dx%d", d2.Rows(), d2.Cols(), r, c)
		}
	})
}

// FuzzReadWeights: with a weight column asked for, a file either fails
// with a located error or gives one finite non-negative weight per row,
// and the weight column is never a feature.
func FuzzReadWeights(f *testing.F) {
	for _, s := range []string{
		"a,w,label\n1,2,0\n3,0.5,1\n5,1,1\n",
		"a,label,w\n1,0,1\n2,1,-1\n3,1,1\n",
		"w,a\n1,0\n2,1\n",
		"a,b,w\n1,2,NaN\n3,4,1e400\n",
		"a,split,w,label\n1,train,1,0\n2,valid,2,1\n3,test,3,1\n",
	} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, text string, optional bool) {
		d, err := Read(strings.NewReader(text), "fuzz.csv", Options{Weight: "w", WeightOptional: optional})
		if err != nil {
			var de *Error
			if !errors.As(err, &de) && !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error without location: %v", err)
			}
			return
		}
		for _, name := range d.Features {
			if name == "w" {
				t.Fatal("the weight column became a feature")
			}
		}
		if d.W == nil {
			if !optional {
				t.Fatal("no weights read from a file that must have them")
			}
			return
		}
		if len(d.W) != d.Rows() || d.WeightColumn != "w" {
			t.Fatalf("%d weights for %d rows (column %q)", len(d.W), d.Rows(), d.WeightColumn)
		}
		for i, w := range d.W {
			if !(w >= 0) || math.IsInf(w, 0) {
				t.Fatalf("row %d: weight %v accepted", i+1, w)
			}
		}
	})
}
