package adaptive

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/svm"
	"github.com/aer-go/aer/synth"
)

func quantFit(t testing.TB, cfg *Config) (*Model, *dataset.Dataset) {
	t.Helper()
	g, err := synth.Generate(&synth.Settings{Samples: 1500, Ratio: 9, Clusters: 2, Features: 6, Informative: 4, FlipY: synth.None}, 4)
	if err != nil {
		t.Fatal(err)
	}
	d := g.Dataset("task")
	parts, _ := dataset.StratifiedSplit(d.Y, []float64{3, 1, 1}, 1)
	train, valid, test := d.Subset(parts[0]), d.Subset(parts[1]), d.Subset(parts[2])
	m, _, err := Fit(context.Background(), &learn.Data{X: train.X, Y: train.Y}, &learn.Data{X: valid.X, Y: valid.Y}, cfg, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return m, test
}

// TestQuantize: the default AER model's boosted members and its svm peer
// are quantised and its logistic-regression peer kept; every test row's
// score moves by at most the stated bound; the encoding is several times
// smaller, decodes to the same bytes and the same scores, and says it is
// quantised.
func TestQuantize(t *testing.T) {
	for _, space := range []ensemble.Space{ensemble.ProbabilitySpace, ensemble.LogitSpace} {
		cfg := &Config{Components: []int{2}}
		m, test := quantFit(t, cfg)
		m.combiner.Space = space
		qm, err := m.Quantize(learn.QuantizeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		q := qm.(*Model)
		info, ok := learn.QuantizationOf(q)
		if !ok || info.Precision != learn.PrecisionInt16 || info.Trees == 0 || !(info.Bound > 0 && info.Bound < 0.01) {
			t.Fatalf("%v: quantization %+v %v", space, info, ok)
		}
		if _, ok := learn.QuantizationOf(m); ok {
			t.Fatal("the full model says it is quantised")
		}
		peers := map[string]int{}
		for j, mb := range q.Members() {
			_, mq := learn.QuantizationOf(mb.Model)
			switch mb.Method {
			case logreg.MethodName:
				peers[mb.Method]++
				if mq || mb.Model != m.members[j].Model {
					t.Fatalf("the logistic-regression peer changed")
				}
			case svm.MethodName:
				peers[mb.Method]++
				if !mq || mb.Model == m.members[j].Model {
					t.Fatalf("the svm peer is not quantised")
				}
			default:
				if !mq {
					t.Fatalf("member %d (%s) is not quantised", j, mb.Method)
				}
			}
		}
		if peers[logreg.MethodName] != 1 || peers[svm.MethodName] != 1 {
			t.Fatalf("peers %v, want one logreg and one svm", peers)
		}
		sf, _, _ := m.Score(test.X, 1)
		sq, _, _ := q.Score(test.X, 1)
		for i := range sf {
			if d := math.Abs(sf[i] - sq[i]); d > info.Bound {
				t.Fatalf("%v: row %d moved %g > %g", space, i, d, info.Bound)
			}
		}
		full, _ := m.MarshalBinary()
		b, err := q.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if 4*len(b) > len(full) {
			t.Errorf("%v: quantised %d bytes, full %d", space, len(b), len(full))
		}
		back, err := Load(b)
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := back.MarshalBinary()
		if !bytes.Equal(b, b2) {
			t.Fatal("the decoded model encodes to other bytes")
		}
		sb, _, _ := back.Score(test.X, 1)
		for i := range sb {
			if math.Float64bits(sb[i]) != math.Float64bits(sq[i]) {
				t.Fatalf("row %d: decoded %v, quantised %v", i, sb[i], sq[i])
			}
		}
		if bi, _ := back.Quantization(); bi != info {
			t.Fatalf("decoded quantization %+v, want %+v", bi, info)
		}
	}
}

// TestQuantizeRefused: a model of logistic-regression members has nothing
// to quantise; a file whose stated bound is below its members' is
// refused.
func TestQuantizeRefused(t *testing.T) {
	m, _ := quantFit(t, &Config{Preset: PresetPaper, Components: []int{2}, Member: logreg.NewStandardized()})
	if _, err := m.Quantize(learn.QuantizeOptions{}); !errors.Is(err, learn.ErrNotQuantizable) {
		t.Fatalf("quantising logistic-regression members: %v", err)
	}
	g, _ := quantFit(t, &Config{Components: []int{2}})
	qm, err := g.Quantize(learn.QuantizeOptions{Precision: learn.PrecisionInt8})
	if err != nil {
		t.Fatal(err)
	}
	q := qm.(*Model)
	q.quant.Bound /= 2
	b, _ := q.MarshalBinary()
	if _, err := Load(b); err == nil {
		t.Fatal("an understated bound loaded")
	}
}

// FuzzLoadQuantized: hostile bytes after the quantised magic never panic.
func FuzzLoadQuantized(f *testing.F) {
	m, _ := quantFit(f, &Config{Components: []int{2}, Member: nil})
	qm, err := m.Quantize(learn.QuantizeOptions{Precision: learn.PrecisionInt8})
	if err != nil {
		f.Fatal(err)
	}
	b, _ := qm.MarshalBinary()
	f.Add(b)
	f.Add(b[:len(b)/3])
	f.Add([]byte(quantMagic + "\x02{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := Load(data); err == nil && len(data) < len(quantMagic) {
			t.Fatal("a short input loaded")
		}
	})
}

// TestQuantizeSVMMembers: a model whose only quantised members are svms
// (no trees) quantises, loads, and keeps its scores within the bound.
func TestQuantizeSVMMembers(t *testing.T) {
	m, test := quantFit(t, &Config{Preset: PresetPaper, Components: []int{2}, Member: svm.NewStandardized()})
	qm, err := m.Quantize(learn.QuantizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	info, _ := learn.QuantizationOf(qm)
	b, err := qm.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if bi, ok := back.Quantization(); !ok || bi != info || info.Trees != 0 || !(info.Bound > 0) {
		t.Fatalf("loaded quantization %+v %v, quantised %+v", bi, ok, info)
	}
	sf, _, _ := m.Score(test.X, 1)
	sb, _, _ := back.Score(test.X, 1)
	for i := range sf {
		if d := math.Abs(sf[i] - sb[i]); d > info.Bound {
			t.Fatalf("row %d moved %g > %g", i, d, info.Bound)
		}
	}
}
