package serve

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
)

// BenchmarkPredictOneRow is one single-row prediction of an AER model
// through the handler, without the network.
func BenchmarkPredictOneRow(b *testing.B) {
	path := *loadModel
	if path == "" {
		path = fitFile(b, b.TempDir(), "aer", "aer", "components=2-3", "n_init=2")
	}
	s, err := New([]Spec{{Name: "m", Path: path}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	sl, _ := s.slotOf("m")
	body := []byte(`{"rows": [[` + strings.Repeat("0,", len(sl.cur.Load().saved.Header().Schema.Features)-1) + `0]]}`)
	for b.Loop() {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/predict", bytes.NewReader(body)))
		if w.Code != http.StatusOK {
			b.Fatal(w.Body.String())
		}
	}
}

// BenchmarkDecodeCSV decodes a CSV body of 1000 rows for a model without
// categorical columns (serve's own parser) and for one with a categorical
// column (package dataset, a row at a time).
func BenchmarkDecodeCSV(b *testing.B) {
	plain, _ := newLayout(&dataset.Schema{Features: []string{"a", "b", "c", "d"}, Label: "label", Classes: []string{"0", "1"}})
	cat, _ := newLayout(&dataset.Schema{Features: []string{"a", "color=blue", "color=red", "c", "d"}, Label: "label", Classes: []string{"0", "1"},
		Categories: []dataset.Category{{Column: "color", Values: []string{"blue", "red"}}}})
	for _, tc := range []struct {
		name string
		lay  *layout
		col  func(i int) string
	}{
		{"plain", plain, func(i int) string { return strconv.Itoa(i % 7) }},
		{"categorical", cat, func(i int) string { return []string{"blue", "red", "green"}[i%3] }},
	} {
		var sb strings.Builder
		sb.WriteString("a," + map[bool]string{true: "color", false: "b"}[tc.lay.categorical] + ",c,d,label\n")
		for i := range 1000 {
			fmt.Fprintf(&sb, "%d.25,%s,%d,-%d.5,%d\n", i, tc.col(i), i%11, i%5, i%2)
		}
		body := sb.String()
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if _, err := decodeRows(strings.NewReader(body), "text/csv", tc.lay, 10000, 1<<20, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
