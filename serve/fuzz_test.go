package serve

import (
	"bytes"
	"errors"
	"math"
	"net/http"
	"testing"

	"github.com/aer-go/aer/dataset"
)

// FuzzDecodeRows feeds the request decoder arbitrary JSON and CSV
// bodies, for a model without and one with categorical columns: it must
// never panic, refuse with an *Error of a client status, and accept only
// rows of the schema's width within the limits, one-hot columns 0 or 1
// with at most one 1 per categorical column.
func FuzzDecodeRows(f *testing.F) {
	f.Add([]byte(`{"rows": [[1, 2.5, null], [-1e3, 0, 4]], "explain": true}`), false)
	f.Add([]byte(`{"rows": [{"a": 1, "b": 2, "c": null, "label": "x"}]}`), false)
	f.Add([]byte("a,c,b\n1,NA,3\n4,5,\n"), true)
	f.Add([]byte("\ufeffa,b,c,w\n1,2,3,0.5\n"), true)
	f.Add([]byte(`{"rows": [{"a": 1, "color": "red", "b": 2, "id": "r1"}, {"a": null, "color": 1.0, "b": 3, "id": 7}], "explain": true, "top": 2}`), false)
	f.Add([]byte(`{"rows": [[1, "blue", 2], [null, null, 3], [0, "green", 1]]}`), false)
	f.Add([]byte("id,color,a,b,label\nx,red,1,2,p\ny,+1,,3,n\nz,purple,NA,4,\n"), true)
	schema := &dataset.Schema{Features: []string{"a", "b", "c"}, Label: "label", Weight: "w", Classes: []string{"n", "p"}}
	catSchema := &dataset.Schema{Features: []string{"a", "color=1", "color=blue", "color=red", "b"}, Label: "label", Weight: "w", ID: "id",
		Classes: []string{"n", "p"}, Categories: []dataset.Category{{Column: "color", Values: []string{"1", "blue", "red"}}}}
	plain, err := newLayout(schema)
	if err != nil {
		f.Fatal(err)
	}
	cat, err := newLayout(catSchema)
	if err != nil {
		f.Fatal(err)
	}
	const maxRows, maxBody = 50, 4096
	f.Fuzz(func(t *testing.T, body []byte, csv bool) {
		ct := "application/json"
		if csv {
			ct = "text/csv"
		}
		for _, l := range []*layout{plain, cat} {
			checkDecode(t, body, ct, l, maxRows, maxBody)
		}
	})
}

func checkDecode(t *testing.T, body []byte, ct string, l *layout, maxRows int, maxBody int64) {
	r := http.MaxBytesReader(nil, nopCloser(bytes.NewReader(body)), maxBody)
	req, err := decodeRows(r, ct, l, maxRows, maxBody, false)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error %v (%T) is not an *Error", err, err)
		}
		if e.Status != 400 && e.Status != 413 {
			t.Fatalf("status %d for %q: %v", e.Status, body, err)
		}
		if len(e.Msg) > 4096 {
			t.Fatalf("message of %d bytes: %.600s", len(e.Msg), e.Msg)
		}
		return
	}
	n, c := req.x.Dims()
	if n < 1 || n > maxRows || c != len(l.schema.Features) {
		t.Fatalf("%d x %d matrix", n, c)
	}
	for _, v := range req.x.RawMatrix().Data {
		if math.IsInf(v, 0) {
			t.Fatalf("infinite value accepted from %q", body)
		}
	}
	if len(req.ids) > n || len(req.unseen) > n {
		t.Fatalf("%d ids and %d unseen lists for %d rows", len(req.ids), len(req.unseen), n)
	}
	for _, col := range l.cols {
		if col.cat == nil {
			continue
		}
		for i := range n {
			ones := 0
			for v := range col.width() {
				switch req.x.At(i, col.feat+v) {
				case 1:
					ones++
				case 0:
				default:
					t.Fatalf("row %d: one-hot feature %d is %v", i+1, col.feat+v, req.x.At(i, col.feat+v))
				}
			}
			if ones > 1 {
				t.Fatalf("row %d: %d one-hot features of %s are 1", i+1, ones, col.name)
			}
		}
	}
}
