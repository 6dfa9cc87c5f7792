package serve

import (
	"bytes"
	"errors"
	"math"
	"net/http"
	"testing"

	"github.com/aer-go/aer/modelfile"
)

// FuzzDecodeRows feeds the request decoder arbitrary JSON and CSV
// bodies: it must never panic, refuse with an *Error of a client status,
// and accept only rows of the schema's width within the limits.
func FuzzDecodeRows(f *testing.F) {
	f.Add([]byte(`{"rows": [[1, 2.5, null], [-1e3, 0, 4]], "explain": true}`), false)
	f.Add([]byte(`{"rows": [{"a": 1, "b": 2, "c": null, "label": "x"}]}`), false)
	f.Add([]byte("a,c,b\n1,NA,3\n4,5,\n"), true)
	f.Add([]byte("\ufeffa,b,c,w\n1,2,3,0.5\n"), true)
	schema := &modelfile.Schema{Features: []string{"a", "b", "c"}, Label: "label", Weight: "w", Classes: [2]string{"n", "p"}}
	const maxRows, maxBody = 50, 4096
	f.Fuzz(func(t *testing.T, body []byte, csv bool) {
		ct := "application/json"
		if csv {
			ct = "text/csv"
		}
		r := http.MaxBytesReader(nil, nopCloser(bytes.NewReader(body)), maxBody)
		req, err := decodeRows(r, ct, schema, maxRows, maxBody)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not an *Error", err, err)
			}
			if e.Status != 400 && e.Status != 413 {
				t.Fatalf("status %d for %q: %v", e.Status, body, err)
			}
			if len(e.Msg) > 4096 {
				t.Fatalf("message of %d bytes", len(e.Msg))
			}
			return
		}
		n, c := req.x.Dims()
		if n < 1 || n > maxRows || c != 3 {
			t.Fatalf("%d x %d matrix", n, c)
		}
		for _, v := range req.x.RawMatrix().Data {
			if math.IsInf(v, 0) {
				t.Fatalf("infinite value accepted from %q", body)
			}
		}
	})
}
