package serve

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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
	body := []byte(`{"rows": [[` + strings.Repeat("0,", len(sl.cur.Load().saved.Header.Schema.Features)-1) + `0]]}`)
	for b.Loop() {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/predict", bytes.NewReader(body)))
		if w.Code != http.StatusOK {
			b.Fatal(w.Body.String())
		}
	}
}
