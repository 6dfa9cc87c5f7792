package adaboost

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

func TestParams(t *testing.T) {
	for _, tc := range []struct {
		m    learn.Method
		want map[string]string
	}{
		{NewRUSBoost(), map[string]string{"n_estimators": "50", "learning_rate": "1", "replacement": "false",
			"max_depth": "1", "criterion": "gini", "max_features": "none", "class_weight": "none"}},
		{NewEasyEnsemble(), map[string]string{"n_estimators": "10", "rounds": "50", "learning_rate": "1", "replacement": "false",
			"max_depth": "1", "criterion": "gini", "max_features": "none", "class_weight": "none"}},
		{NewAdaBoost(), map[string]string{"n_estimators": "50", "learning_rate": "1", "max_depth": "1"}},
	} {
		got := learn.ParamMap(tc.m.Params())
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: %s = %q, want %q", tc.m.Name(), k, got[k], v)
			}
		}
	}
	m := NewEasyEnsemble()
	for _, kv := range [][2]string{{"rounds", "20"}, {"n_estimators", "4"}, {"max_depth", "2"}, {"learning_rate", "0.5"}, {"replacement", "true"}} {
		if err := m.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	s := m.(*Method).Settings()
	if s.NEstimators != 4 || s.Boost.NEstimators != 20 || s.Boost.Tree.MaxDepth != 2 || s.Boost.LearningRate != 0.5 || !s.Replacement || s.Boost.Replacement {
		t.Errorf("settings %+v, tree %+v", s, *s.Boost.Tree)
	}
	// A fresh method keeps its own defaults: Set changed m's tree
	// settings, not every method's.
	if got := learn.ParamMap(NewEasyEnsemble().Params())["max_depth"]; got != "1" {
		t.Errorf("a fresh method's max_depth is %q after another's Set", got)
	}
	for _, kv := range [][2]string{{"learning_rate", "0"}, {"learning_rate", "-1"}, {"rounds", "0"}, {"max_depth", "x"}} {
		if err := m.Set(kv[0], kv[1]); !errors.Is(err, learn.ErrParam) {
			t.Errorf("Set(%s, %s): %v, want ErrParam", kv[0], kv[1], err)
		}
	}
	if err := NewRUSBoost().Set("rounds", "3"); !errors.Is(err, learn.ErrParam) {
		t.Errorf("rusboost has no rounds key: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	d := data(200, 3, 0.2, 7)
	d.Features = []string{"a", "b", "c"}
	m := NewEasyEnsemble()
	_ = m.Set("n_estimators", "2")
	_ = m.Set("rounds", "3")
	model, err := m.Fit(context.Background(), d, nil, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := model.MarshalBinary()
	back, err := NewRUSBoost().Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := back.MarshalBinary(); !bytes.Equal(again, b) {
		t.Error("load then save changes the bytes")
	}
	for k := range len(b) {
		if _, err := m.Load(b[:k]); err == nil {
			t.Fatalf("payload cut at %d of %d bytes: no error", k, len(b))
		}
	}
	if _, err := m.Load(append(b, 1)); err == nil {
		t.Error("a trailing byte: no error")
	}
	// A leaf term beyond log(1/eps): the last float64 before the names of
	// the second ensemble's last tree.
	bad := bytes.Clone(b)
	at := len(bad) - (4 + 3*(4+1)) - 8
	binary.LittleEndian.PutUint64(bad[at:], math.Float64bits(math.NaN()))
	if _, err := m.Load(bad); err == nil || !strings.Contains(err.Error(), "term") {
		t.Errorf("a NaN term: %v", err)
	}
}

func TestSummaryExplain(t *testing.T) {
	d := data(300, 3, 0.15, 9)
	d.Features = []string{"signal", "n1", "n2"}
	for _, tc := range []struct {
		m         learn.Method
		ensembles int
		text      string
	}{
		{NewRUSBoost(), 1, "ensemble: P(1)"},
		{NewEasyEnsemble(), 10, "the mean of 10 ensembles' probabilities"},
	} {
		model, err := tc.m.Fit(context.Background(), d, nil, learn.Env{Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		s := model.(learn.Summarizer).Summary().(*Summary)
		if s.Ensembles != tc.ensembles || len(s.Rounds) != tc.ensembles || s.Importance[0].Feature != "signal" {
			t.Errorf("%s: summary %+v", tc.m.Name(), s)
		}
		if (tc.ensembles == 1) != (len(s.Errors) == s.Rounds[0]) {
			t.Errorf("%s: %d errors for %v rounds", tc.m.Name(), len(s.Errors), s.Rounds)
		}
		if _, err := json.Marshal(s); err != nil || !strings.Contains(s.String(), "importance signal") {
			t.Errorf("%s: %q, %v", tc.m.Name(), s.String(), err)
		}
		row := d.X.RawRowView(0)
		e, err := model.(learn.Explainer).Explain(row)
		if err != nil {
			t.Fatal(err)
		}
		x := e.(*Explanation)
		p, _ := model.PositiveProba(d.X.Slice(0, 1, 0, 3).(*mat.Dense), nil)
		if math.Abs(x.Score-p[0]) > 1e-15 || len(x.Ensembles) != tc.ensembles {
			t.Errorf("%s: explained score %v, predicted %v", tc.m.Name(), x.Score, p[0])
		}
		// Each ensemble's decision is the mean of its terms.
		for _, ee := range x.Ensembles {
			sum := 0.0
			for _, v := range ee.Terms {
				sum += v
			}
			if math.Abs(sum/float64(len(ee.Terms))-ee.Decision) > 1e-12 {
				t.Errorf("%s: decision %v, mean of terms %v", tc.m.Name(), ee.Decision, sum/float64(len(ee.Terms)))
			}
		}
		var buf bytes.Buffer
		if err := e.WriteText(&buf); err != nil || !strings.Contains(buf.String(), tc.text) {
			t.Errorf("%s: %q, %v", tc.m.Name(), buf.String(), err)
		}
	}
}
