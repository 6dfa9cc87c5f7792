package adaptive

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/modelfile"
)

// TestLoadPreviousVersion: a model file written by the version before
// members and peers were methods and their parameters had namespaces
// (testdata/v0.aer: aer fit --method aer --param components=2 --param
// n_init=1 --param n_estimators=5 --param max_depth=2 --param peers=logreg
// --param tol=1e-4 --seed 0 on v0.train.csv, by the aer binary of commit
// 6ec122d) loads, with its member settings, peers and AER's own tol; it
// scores v0.train.csv bit for bit as that version's aer predict did
// (v0.scores.csv); and it saves back to the same payload.
func TestLoadPreviousVersion(t *testing.T) {
	h, payload, err := modelfile.Load("testdata/v0.aer")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(payload)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Config()
	if c.Member == nil || c.Member.Name() != "gbdt" || !slices.Equal(c.MemberParams, []string{"n_estimators=5", "max_depth=2"}) ||
		len(c.Peers) != 1 || c.Peers[0].Name() != "logreg" || c.Tol != 1e-4 || c.Preset != PresetPlus {
		t.Errorf("loaded configuration: member %v %v, peers %v, tol %v, preset %q", c.Member, c.MemberParams, methodNames(c.Peers), c.Tol, c.Preset)
	}
	got := map[string]string{}
	for _, p := range c.List() {
		got[p.Key] = p.Value
	}
	if got["member.max_depth"] != "2" || got["member.n_estimators"] != "5" || got["tol"] != "0.0001" || got["peer.logreg.tol"] != "1e-10" {
		t.Errorf("listed parameters: member.max_depth %q, member.n_estimators %q, tol %q, peer.logreg.tol %q",
			got["member.max_depth"], got["member.n_estimators"], got["tol"], got["peer.logreg.tol"])
	}

	x := readFeatures(t, "testdata/v0.train.csv", h.Schema.Features)
	scores, _, err := m.Score(x, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := readColumn(t, "testdata/v0.scores.csv", "score")
	if len(scores) != len(want) {
		t.Fatalf("%d scores, want %d", len(scores), len(want))
	}
	for i := range want {
		if math.Float64bits(scores[i]) != math.Float64bits(want[i]) {
			t.Fatalf("row %d: score %v, the previous version's %v", i+1, scores[i], want[i])
		}
	}
	back, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, payload) {
		t.Errorf("saved again, the payload differs:\n%s\nwas\n%s", back[:min(len(back), 600)], payload[:min(len(payload), 600)])
	}
}

// readCSV reads a small CSV file with a header line.
func readCSV(t *testing.T, path string) (header []string, rows [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil || len(all) < 2 {
		t.Fatalf("%s: %v", path, err)
	}
	return all[0], all[1:]
}

// readFeatures reads the named numeric columns of a CSV file, empty cells
// as NaN.
func readFeatures(t *testing.T, path string, names []string) *mat.Dense {
	t.Helper()
	header, rows := readCSV(t, path)
	x := mat.NewDense(len(rows), len(names), nil)
	for j, name := range names {
		col := slices.Index(header, name)
		if col < 0 {
			t.Fatalf("%s has no column %q", path, name)
		}
		for i, r := range rows {
			v := math.NaN()
			if r[col] != "" {
				var err error
				if v, err = strconv.ParseFloat(r[col], 64); err != nil {
					t.Fatalf("%s row %d column %s: %v", path, i+2, name, err)
				}
			}
			x.Set(i, j, v)
		}
	}
	return x
}

// readColumn reads one numeric column of a CSV file.
func readColumn(t *testing.T, path, name string) []float64 {
	t.Helper()
	x := readFeatures(t, path, []string{name})
	out := make([]float64, x.RawMatrix().Rows)
	for i := range out {
		out[i] = x.At(i, 0)
	}
	return out
}

// TestConfigJSON: every field of Config but Learners has its place in the
// JSON form, and a configuration with every kind of field set (methods,
// their settings, enums) encodes, decodes and encodes again to the same
// bytes; an unknown key is an error.
func TestConfigJSON(t *testing.T) {
	ct, jt := reflect.TypeFor[Config](), reflect.TypeFor[configJSON]()
	for i := range ct.NumField() {
		name := ct.Field(i).Name
		if _, ok := jt.FieldByName(name); !ok && name != "Learners" {
			t.Errorf("Config.%s has no place in configJSON", name)
		}
	}
	c := &Config{Components: []int{2, 5}, Covariance: CovarianceDiag, Likelihood: LikelihoodLog, Grid: [][]string{{"eta=0.1"}}}
	for _, kv := range [][2]string{{"member", "logreg"}, {"member.C", "3"}, {"peers", "gbdt,logreg"}, {"peer.gbdt.max_depth", "2"},
		{"peer.logreg.tol", "1e-6"}, {"pool", "false"}, {"preset", "paper"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	b2, err := json.Marshal(&back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, b2) {
		t.Errorf("round trip:\n%s\n%s", b, b2)
	}
	for _, want := range []string{`"preset":"paper"`, `"pool":false`, `"peers":["gbdt","logreg"]`, `"peer_params":["gbdt.max_depth=2","logreg.tol=1e-06"]`,
		`"covariance":"diag"`, `"member":"logreg"`, `"member_params":["C=3"]`, `"likelihood":"log"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("JSON lacks %s: %s", want, b)
		}
	}
	if back.Member.Name() != "logreg" || back.Covariance != CovarianceDiag || *back.Pool || len(back.Peers) != 2 {
		t.Errorf("decoded %+v", back)
	}
	if err := json.Unmarshal([]byte(`{"preset":"plus","members":"gbdt"}`), &back); err == nil {
		t.Error("an unknown key was accepted")
	}
	if err := json.Unmarshal([]byte(`{"member":"no-such-method"}`), &back); err == nil || !strings.Contains(err.Error(), "no-such-method") {
		t.Errorf("unknown member method: %v", err)
	}
}
