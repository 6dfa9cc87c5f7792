package dataset

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The goldens under testdata/sklearn_split come from scikit-learn 1.2.1 and
// numpy 1.24.2 (make_golden.py there); regenerate them with that script.

type syntheticGolden struct {
	Raw []struct {
		Seed  uint32   `json:"seed"`
		First []uint32 `json:"first"`
		At    []uint32 `json:"at_1290"`
	} `json:"raw"`
	Permutations []struct {
		Seed   uint32 `json:"seed"`
		N      int    `json:"n"`
		Perm   []int  `json:"perm"`
		SHA256 string `json:"sha256"`
		First  []int  `json:"first"`
	} `json:"permutations"`
	Uint64 []struct {
		Seed   uint32   `json:"seed"`
		Max    string   `json:"max"`
		Values []string `json:"values"`
	} `json:"uint64"`
	Splits []struct {
		Case     string  `json:"case"`
		Y        []int   `json:"y"`
		TestSize float64 `json:"test_size"`
		Seed     uint32  `json:"seed"`
		Train    []int   `json:"train"`
		Test     []int   `json:"test"`
		Error    string  `json:"error"`
	} `json:"splits"`
	Anchor []struct {
		Case  string `json:"case"`
		Y     []int  `json:"y"`
		Seed  uint32 `json:"seed"`
		Train []int  `json:"train"`
		Valid []int  `json:"valid"`
		Test  []int  `json:"test"`
		Error string `json:"error"`
	} `json:"anchor"`
}

func loadSynthetic(t *testing.T) *syntheticGolden {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sklearn_split", "synthetic.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g syntheticGolden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return &g
}

func indexSHA(idx []int) string {
	s := make([]string, len(idx))
	for i, v := range idx {
		s[i] = strconv.Itoa(v)
	}
	h := sha256.Sum256([]byte(strings.Join(s, ",")))
	return hex.EncodeToString(h[:])
}

// nonNil makes an empty golden list compare equal to an empty result.
func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

func TestLegacyRandomStateRaw(t *testing.T) {
	g := loadSynthetic(t)
	if len(g.Raw) == 0 {
		t.Fatal("no raw goldens")
	}
	for _, c := range g.Raw {
		r := newLegacyRandomState(c.Seed)
		got := make([]uint32, 1300)
		for i := range got {
			got[i] = r.uint32()
		}
		if !slices.Equal(got[:10], c.First) {
			t.Errorf("seed %d: first words %v, numpy %v", c.Seed, got[:10], c.First)
		}
		if !slices.Equal(got[1290:], c.At) {
			t.Errorf("seed %d: words 1290.. (after two reloads) %v, numpy %v", c.Seed, got[1290:], c.At)
		}
	}
}

func TestLegacyRandomStatePermutation(t *testing.T) {
	g := loadSynthetic(t)
	for _, c := range g.Permutations {
		got := newLegacyRandomState(c.Seed).permutation(c.N)
		if c.Perm != nil {
			if !slices.Equal(got, nonNil(c.Perm)) {
				t.Errorf("seed %d: permutation(%d) = %v, numpy %v", c.Seed, c.N, got, c.Perm)
			}
			continue
		}
		if !slices.Equal(got[:10], c.First) || indexSHA(got) != c.SHA256 {
			t.Errorf("seed %d: permutation(%d) starts %v (sha %s), numpy %v (sha %s)",
				c.Seed, c.N, got[:10], indexSHA(got), c.First, c.SHA256)
		}
	}
}

// TestLegacyRandomStateInterval64 checks the 64-bit branch of the bounded
// draw (shuffles past 2^32 rows) against numpy's legacy randint, which
// draws the same masked 64-bit values.
func TestLegacyRandomStateInterval64(t *testing.T) {
	g := loadSynthetic(t)
	if len(g.Uint64) == 0 {
		t.Fatal("no uint64 goldens")
	}
	for _, c := range g.Uint64 {
		max, err := strconv.ParseUint(c.Max, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		r := newLegacyRandomState(c.Seed)
		for k, ws := range c.Values {
			want, _ := strconv.ParseUint(ws, 10, 64)
			if got := r.interval(max); got != want {
				t.Errorf("seed %d, max %d, draw %d: %d, numpy %d", c.Seed, max, k, got, want)
			}
		}
	}
}

func TestSklearnTrainTestSplitSynthetic(t *testing.T) {
	g := loadSynthetic(t)
	errs := 0
	for _, c := range g.Splits {
		train, test, err := SklearnTrainTestSplit(c.Y, c.TestSize, c.Seed)
		if c.Error != "" {
			errs++
			if err == nil || !errors.Is(err, ErrSklearnSplit) {
				t.Errorf("%s test_size %v seed %d: err %v, scikit-learn: %s", c.Case, c.TestSize, c.Seed, err, c.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s test_size %v seed %d: %v", c.Case, c.TestSize, c.Seed, err)
			continue
		}
		if !slices.Equal(train, c.Train) || !slices.Equal(test, c.Test) {
			t.Errorf("%s test_size %v seed %d:\n got train %v test %v\nwant train %v test %v",
				c.Case, c.TestSize, c.Seed, train, test, c.Train, c.Test)
		}
	}
	if len(g.Splits) == 0 || errs == 0 || errs == len(g.Splits) {
		t.Fatalf("golden has %d splits, %d of them errors: want both kinds", len(g.Splits), errs)
	}
}

func TestAnchorSplitSynthetic(t *testing.T) {
	g := loadSynthetic(t)
	for _, c := range g.Anchor {
		train, valid, test, err := AnchorSplit(c.Y, c.Seed)
		if c.Error != "" {
			if err == nil {
				t.Errorf("%s seed %d: no error, scikit-learn: %s", c.Case, c.Seed, c.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s seed %d: %v", c.Case, c.Seed, err)
			continue
		}
		if !slices.Equal(train, c.Train) || !slices.Equal(valid, c.Valid) || !slices.Equal(test, c.Test) {
			t.Errorf("%s seed %d:\n got %v %v %v\nwant %v %v %v", c.Case, c.Seed, train, valid, test, c.Train, c.Valid, c.Test)
		}
	}
}

// TestApproximateModeTies pins the tie-breaking draws of _approximate_mode
// with the examples of scikit-learn's docstring.
func TestApproximateModeTies(t *testing.T) {
	for _, c := range []struct {
		counts []int
		draws  int
		seed   uint32
		want   []int
	}{
		{[]int{4, 2}, 3, 0, []int{2, 1}},
		{[]int{5, 2}, 4, 0, []int{3, 1}},
		{[]int{2, 2, 2, 1}, 2, 0, []int{0, 1, 1, 0}},
		{[]int{2, 2, 2, 1}, 2, 42, []int{1, 1, 0, 0}},
	} {
		got := approximateMode(c.counts, c.draws, newLegacyRandomState(c.seed))
		if !slices.Equal(got, c.want) {
			t.Errorf("approximateMode(%v, %d, %d) = %v, scikit-learn %v", c.counts, c.draws, c.seed, got, c.want)
		}
	}
}

// TestSklearnSplitInvariants checks on many label vectors that the parts
// are disjoint, cover ceil(t*n) and n-ceil(t*n) rows, and keep each class
// within one row of its proportional share.
func TestSklearnSplitInvariants(t *testing.T) {
	for n := 4; n <= 60; n += 3 {
		for want := 2; want <= n-2; want += 5 {
			y := make([]int, n)
			for i := 0; i < want; i++ {
				y[(i*7+i/7)%n] = 1 // scattered; collisions only lower pos
			}
			pos := 0
			for _, v := range y {
				pos += v
			}
			seed := uint32(n*100 + want)
			train, test, err := SklearnTrainTestSplit(y, 0.4, seed)
			if err != nil {
				continue // too few rows for both classes in a part
			}
			nTest := (4*n + 9) / 10
			if len(test) != nTest || len(train) != n-nTest {
				t.Fatalf("n=%d: sizes %d/%d, want %d/%d", n, len(train), len(test), n-nTest, nTest)
			}
			all := append(slices.Clone(train), test...)
			slices.Sort(all)
			for i, v := range all {
				if v != i {
					t.Fatalf("n=%d pos=%d: parts are not a partition: %v", n, pos, all)
				}
			}
			p := 0
			for _, i := range test {
				p += y[i]
			}
			share := float64(pos) * float64(nTest) / float64(n)
			if float64(p) < share-1 || float64(p) > share+1 {
				t.Errorf("n=%d pos=%d: %d positives in test, share %.2f", n, pos, p, share)
			}
		}
	}
}

func TestSklearnSplitErrors(t *testing.T) {
	for _, c := range []struct {
		y  []int
		ts float64
	}{
		{[]int{0, 1, 0, 1}, 0},
		{[]int{0, 1, 0, 1}, 1},
		{[]int{0, 1, 0, 1}, -0.5},
		{nil, 0.4},
		{[]int{0, 0, 0, 1}, 0.4},
		{[]int{0, 1, 0, 1, 0}, 0.2},
	} {
		if _, _, err := SklearnTrainTestSplit(c.y, c.ts, 0); !errors.Is(err, ErrSklearnSplit) {
			t.Errorf("SklearnTrainTestSplit(%v, %v): err %v, want ErrSklearnSplit", c.y, c.ts, err)
		}
	}
}

type anchorGoldenPart struct {
	Rows     int    `json:"rows"`
	Positive int    `json:"positive"`
	First    []int  `json:"first"`
	SHA256   string `json:"sha256"`
}

type anchorGolden struct {
	Dataset      string           `json:"dataset"`
	Seed         uint32           `json:"seed"`
	Rows         int              `json:"rows"`
	LabelsSHA256 string           `json:"labels_sha256"`
	Train        anchorGoldenPart `json:"train"`
	Valid        anchorGoldenPart `json:"valid"`
	Test         anchorGoldenPart `json:"test"`
}

// sharedLabels loads the label columns of the shared datasets, keyed by name.
func sharedLabels(t *testing.T) map[string][]int {
	t.Helper()
	dir := sharedDir(t, "datasets")
	files, err := filepath.Glob(filepath.Join(dir, "*.csv"))
	if err != nil || len(files) == 0 {
		t.Skipf("no CSV files in %s; skipping", dir)
	}
	labels := map[string][]int{}
	for _, f := range files {
		d, err := Load(f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		labels[d.Name] = d.Y
	}
	return labels
}

// TestAnchorSplitDatasets reproduces the Python anchors' split of every
// shared dataset and seeds 0-4, index for index and in order.
func TestAnchorSplitDatasets(t *testing.T) {
	labels := sharedLabels(t)
	b, err := os.ReadFile(filepath.Join("testdata", "sklearn_split", "anchor_splits.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Splits []anchorGolden `json:"splits"`
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Splits) != 40 {
		t.Fatalf("golden has %d dataset x seed splits, want 8 x 5", len(g.Splits))
	}
	for _, c := range g.Splits {
		y, ok := labels[c.Dataset]
		if !ok {
			t.Errorf("%s: not in the shared datasets", c.Dataset)
			continue
		}
		if indexSHA(y) != c.LabelsSHA256 {
			t.Errorf("%s: labels differ from those the golden was made from", c.Dataset)
			continue
		}
		train, valid, test, err := AnchorSplit(y, c.Seed)
		if err != nil {
			t.Errorf("%s seed %d: %v", c.Dataset, c.Seed, err)
			continue
		}
		for _, p := range []struct {
			name string
			got  []int
			want anchorGoldenPart
		}{{"train", train, c.Train}, {"valid", valid, c.Valid}, {"test", test, c.Test}} {
			pos := 0
			for _, i := range p.got {
				pos += y[i]
			}
			if len(p.got) != p.want.Rows || pos != p.want.Positive ||
				!slices.Equal(p.got[:10], p.want.First) || indexSHA(p.got) != p.want.SHA256 {
				t.Errorf("%s seed %d %s: %d rows, %d positive, starts %v; scikit-learn %d, %d, %v",
					c.Dataset, c.Seed, p.name, len(p.got), pos, p.got[:10], p.want.Rows, p.want.Positive, p.want.First)
			}
		}
	}
}

// TestAnchorSplitRunsCSV checks the part sizes and training positives that
// every run of ../shared/anchors/runs.csv records, and the test positives
// its confusion counts imply (tuned_tp + tuned_fn).
func TestAnchorSplitRunsCSV(t *testing.T) {
	labels := sharedLabels(t)
	f, err := os.Open(filepath.Join(sharedDir(t, "anchors"), "runs.csv"))
	if err != nil {
		t.Skipf("%v; skipping", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, h := range []string{"dataset", "seed", "n_train", "n_valid", "n_test", "n_min_train", "tuned_tp", "tuned_fn"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("runs.csv has no %q column", h)
		}
	}
	type key struct {
		name string
		seed uint32
	}
	want := map[key][5]int{} // computed once per dataset and seed
	checked := map[key]bool{}
	rows := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		seed, err := strconv.ParseUint(rec[col["seed"]], 10, 32)
		if err != nil {
			t.Fatalf("runs.csv seed %q: %v", rec[col["seed"]], err)
		}
		k := key{rec[col["dataset"]], uint32(seed)}
		y, ok := labels[k.name]
		if !ok {
			t.Errorf("runs.csv dataset %q not in the shared datasets", k.name)
			continue
		}
		w, ok := want[k]
		if !ok {
			train, valid, test, err := AnchorSplit(y, k.seed)
			if err != nil {
				t.Fatalf("%s seed %d: %v", k.name, k.seed, err)
			}
			w = [5]int{len(train), len(valid), len(test), 0, 0}
			for _, i := range train {
				w[3] += y[i]
			}
			for _, i := range test {
				w[4] += y[i]
			}
			want[k] = w
		}
		var got [5]int
		for j, h := range []string{"n_train", "n_valid", "n_test", "n_min_train", "tuned_tp"} {
			if got[j], err = strconv.Atoi(rec[col[h]]); err != nil {
				t.Fatalf("runs.csv %s %q: %v", h, rec[col[h]], err)
			}
		}
		fn, err := strconv.Atoi(rec[col["tuned_fn"]])
		if err != nil {
			t.Fatalf("runs.csv tuned_fn %q: %v", rec[col["tuned_fn"]], err)
		}
		got[4] += fn
		if got != w {
			t.Errorf("runs.csv %s seed %d %s: train/valid/test/min_train/min_test %v, AnchorSplit %v",
				k.name, k.seed, rec[col["method"]], got, w)
		}
		checked[k] = true
		rows++
	}
	if len(checked) != 40 {
		t.Errorf("runs.csv covers %d dataset x seed pairs, want 8 x 5", len(checked))
	}
	t.Logf("%d runs.csv rows over %d dataset x seed pairs agree", rows, len(checked))
}
