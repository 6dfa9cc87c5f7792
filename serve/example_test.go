package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	_ "github.com/aer-go/aer/methods" // every method, by name
	"github.com/aer-go/aer/modelfile"
	"github.com/aer-go/aer/serve"
	"github.com/aer-go/aer/synth"
)

// saveModel fits logistic regression on synthetic data and saves it as
// aer fit would.
func saveModel(path string) error {
	d, err := synth.Generate(&synth.Settings{Samples: 200, Features: 3, Informative: 2, Redundant: synth.None, Ratio: 3}, 1)
	if err != nil {
		return err
	}
	m, _ := learn.New("logreg")
	model, err := m.Fit(context.Background(), &learn.Data{X: d.X, Y: d.Y, Features: d.Features}, nil, learn.Env{})
	if err != nil {
		return err
	}
	payload, err := model.MarshalBinary()
	if err != nil {
		return err
	}
	return modelfile.Save(path, &modelfile.Header{Method: "logreg",
		Schema: dataset.Schema{Features: d.Features, Label: "class", Classes: []string{"ok", "fraud"}}}, payload)
}

func Example() {
	dir, _ := os.MkdirTemp("", "serve")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "fraud.aer")
	if err := saveModel(path); err != nil {
		fmt.Println(err)
		return
	}
	spec, _ := serve.ParseSpec(path) // named "fraud" after the file
	s, err := serve.New([]serve.Spec{spec}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}

	// Rows by feature name; null is a missing value.
	body := `{"rows": [{"x0": 0.1, "x1": -0.3, "x2": null}]}`
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("POST", "/v1/models/fraud/predict", strings.NewReader(body)))
	fmt.Println(w.Code, strings.Contains(w.Body.String(), `"threshold":0.5,"threshold_from":"default"`))

	// A mistake is a JSON error naming the row and the field.
	body = `{"rows": [[0.1, -0.3, 2], [0.1, "high", 2]]}`
	w = httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("POST", "/v1/predict", strings.NewReader(body)))
	fmt.Print(w.Code, " ", w.Body.String())
	// Output:
	// 200 true
	// 400 {"error":"row 2, field \"x1\": \"high\" is not a number (send a JSON number, or null for a missing value)","row":2,"field":"x1"}
}

func ExampleParseSpec() {
	for _, arg := range []string{"models/ecoli.aer", "v2=models/ecoli-new.aer"} {
		s, err := serve.ParseSpec(arg)
		fmt.Printf("%s %s %v\n", s.Name, s.Path, err)
	}
	// Output:
	// ecoli models/ecoli.aer <nil>
	// v2 models/ecoli-new.aer <nil>
}

// A model fitted on a categorical column takes its raw values; ids are
// echoed, unseen values reported.
func Example_categorical() {
	dir, _ := os.MkdirTemp("", "serve")
	defer os.RemoveAll(dir)
	var sb strings.Builder
	sb.WriteString("id,amount,country,label\n")
	for i := range 200 {
		country, label := []string{"DE", "FR", "US"}[i%3], 0
		if i%7 == 0 {
			label = 1
		}
		fmt.Fprintf(&sb, "t%d,%d,%s,%d\n", i, 10+i%13*label+i%5, country, label)
	}
	// Read as aer fit reads it: country is one-hot encoded.
	d, err := dataset.Read(strings.NewReader(sb.String()), "train", dataset.Options{ID: "id", AutoCategorical: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, _ := learn.New("logreg")
	model, err := m.Fit(context.Background(), &learn.Data{X: d.X, Y: d.Y, Features: d.Features}, nil, learn.Env{})
	if err != nil {
		fmt.Println(err)
		return
	}
	payload, _ := model.MarshalBinary()
	path := filepath.Join(dir, "pay.aer")
	cats := []dataset.Category{{Column: d.Categories[0].Column, Values: d.Categories[0].Values}}
	err = modelfile.Save(path, &modelfile.Header{Method: "logreg",
		Schema: dataset.Schema{Features: d.Features, Label: "label", Classes: d.Classes, ID: "id", Categories: cats}}, payload)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := serve.New([]serve.Spec{{Name: "pay", Path: path}}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Features)

	body := `{"rows": [{"id": "a1", "amount": 12, "country": "FR"}, {"id": "a2", "amount": 12, "country": "MX"}]}`
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("POST", "/v1/predict", strings.NewReader(body)))
	var resp struct {
		Rows []struct {
			ID     string   `json:"id"`
			Unseen []string `json:"unseen"`
		} `json:"rows"`
	}
	json.Unmarshal(w.Body.Bytes(), &resp)
	fmt.Println(w.Code, resp.Rows)
	// Output:
	// [amount country=DE country=FR country=US]
	// 200 [{a1 []} {a2 [country]}]
}
