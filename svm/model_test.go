package svm

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// TestEncodeRoundTrip: a decoded model predicts bit for bit as the fitted
// one, keeps its summary and encodes to the same bytes, for every kernel.
func TestEncodeRoundTrip(t *testing.T) {
	d := problem(t, 150, 4, 20)
	for _, s := range []Settings{{}, {Kernel: Linear}, {Kernel: Polynomial, Degree: 2, Coef0: 0.5}} {
		m := fit(t, d, nil, s, learn.Env{})
		b := payload(t, m)
		got, err := NewMethod().Load(b)
		if err != nil {
			t.Fatal(err)
		}
		lm := got.(*Model)
		p1, _ := m.PositiveProba(d.X, nil)
		p2, _ := lm.PositiveProba(d.X, nil)
		for i := range p1 {
			if math.Float64bits(p1[i]) != math.Float64bits(p2[i]) {
				t.Fatalf("%s: row %d: %v fitted, %v loaded", s.Kernel, i, p1[i], p2[i])
			}
		}
		if !bytes.Equal(b, payload(t, lm)) {
			t.Errorf("%s: the loaded model encodes differently", s.Kernel)
		}
		js1, _ := json.Marshal(m.Summary())
		js2, _ := json.Marshal(lm.Summary())
		if !bytes.Equal(js1, js2) {
			t.Errorf("%s: summary %s, loaded %s", s.Kernel, js1, js2)
		}
		if lm.NumFeatures() != 4 || lm.NumParams() != len(m.coef)+1 || len(lm.Support()) != len(m.support) {
			t.Errorf("%s: loaded sizes differ", s.Kernel)
		}
	}
}

// TestDecodeRejects: damaged payloads are errors, not panics.
func TestDecodeRejects(t *testing.T) {
	d := problem(t, 100, 3, 21)
	b := payload(t, fit(t, d, nil, Settings{}, learn.Env{}))
	hlen := int(binary.LittleEndian.Uint32(b[len(magic):]))
	arrays := len(magic) + 4 + hlen
	nan := bytes.Clone(b)
	binary.LittleEndian.PutUint64(nan[len(nan)-8:], math.Float64bits(math.NaN()))
	header := func(edit func(h map[string]any)) []byte {
		var h map[string]any
		if err := json.Unmarshal(b[len(magic)+4:arrays], &h); err != nil {
			t.Fatal(err)
		}
		edit(h)
		js, _ := json.Marshal(h)
		out := append([]byte(magic), 0, 0, 0, 0)
		binary.LittleEndian.PutUint32(out[len(magic):], uint32(len(js)))
		return append(append(out, js...), b[arrays:]...)
	}
	for name, p := range map[string][]byte{
		"empty":         nil,
		"magic":         []byte("aer-svm"),
		"other":         append([]byte("aer-gbd\x01"), b[len(magic):]...),
		"header length": b[:len(magic)+2],
		"header cut":    b[:arrays-1],
		"arrays cut":    b[:len(b)-1],
		"arrays long":   append(bytes.Clone(b), 0),
		"nan":           nan,
		"kernel":        header(func(h map[string]any) { h["kernel"] = "sigmoid" }),
		"gamma":         header(func(h map[string]any) { h["gamma"] = -1 }),
		"features":      header(func(h map[string]any) { h["features"] = 0 }),
		"support":       header(func(h map[string]any) { h["support_vectors"] = -3 }),
		"huge":          header(func(h map[string]any) { h["features"] = 1 << 23; h["support_vectors"] = 1 << 40 }),
	} {
		if _, err := decode(p); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// FuzzDecode: any payload decodes to an error or to a model that scores
// rows without panicking.
func FuzzDecode(f *testing.F) {
	d := problem(f, 60, 3, 22)
	for _, s := range []Settings{{}, {Kernel: Linear}} {
		f.Add(payload(f, fit(f, d, nil, s, learn.Env{})))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		m, err := decode(p)
		if err != nil {
			return
		}
		if m.NumFeatures() == 3 {
			if _, err := m.PositiveProba(d.X, nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := m.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestDecisionGrouping: rows scored four at a time get the values they get
// alone, so results do not depend on how rows are batched.
func TestDecisionGrouping(t *testing.T) {
	d := problem(t, 150, 7, 23)
	for _, s := range []Settings{{}, {Kernel: Polynomial}} {
		m := fit(t, d, nil, s, learn.Env{})
		all, err := m.Decision(d.X, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range d.Rows() {
			one, _ := m.Decision(d.X.Slice(i, i+1, 0, 7).(*mat.Dense), nil)
			if math.Float64bits(one[0]) != math.Float64bits(all[i]) {
				t.Fatalf("%s row %d: %v alone, %v in a batch", s.Kernel, i, one[0], all[i])
			}
		}
	}
}
