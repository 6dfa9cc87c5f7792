package resample

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
)

// Trace gives the same rows as Resample, and each row is what its
// origin says: an input row as it is, or its parents' interpolation.
func TestTraceOrigins(t *testing.T) {
	d := blobs(120, 30, 3, 5, true)
	for _, name := range Names() {
		s, _ := New(name)
		want, err := s.Resample(context.Background(), d, learn.Env{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		got, origins, err := s.(Tracer).Trace(context.Background(), d, learn.Env{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(got.X, want.X) || !slices.Equal(got.Y, want.Y) || !slices.Equal(got.W, want.W) || len(origins) != got.Rows() {
			t.Fatalf("%s: Trace and Resample differ (%d origins, %d rows)", name, len(origins), got.Rows())
		}
		last, synthetic := -1, 0
		for i, o := range origins {
			row := got.X.RawRowView(i)
			if o.Row >= 0 {
				if o.Row <= last || synthetic > 0 || !slices.Equal(row, d.X.RawRowView(o.Row)) || got.Y[i] != d.Y[o.Row] || got.W[i] != d.W[o.Row] {
					t.Fatalf("%s: row %d is not input row %d (kept rows in order, before the synthetic ones)", name, i, o.Row)
				}
				last = o.Row
				continue
			}
			synthetic++
			a, b := d.X.RawRowView(o.A), d.X.RawRowView(o.B)
			for j := range row {
				if row[j] != a[j]+o.Gap*(b[j]-a[j]) {
					t.Fatalf("%s: synthetic row %d is not between rows %d and %d at %v", name, i, o.A, o.B, o.Gap)
				}
			}
		}
		if strings.HasPrefix(name, "smote") != (synthetic > 0) {
			t.Errorf("%s: %d synthetic rows", name, synthetic)
		}
	}
}

// Table keeps ids and text cells of kept rows, names the synthetic rows
// smote-1, ..., and gives them the category of their nearer parent.
func TestTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,x,clinic,note,label\n")
	clinics := []string{"east", "west", "north", ""}
	for i := range 60 {
		fmt.Fprintf(&b, "r%02d,%g,%s,n%d,%d\n", i, float64(i%7)+float64(i%6/5)*3, clinics[i%4], i, min(i%6, 1)^1)
	}
	d, err := dataset.Read(strings.NewReader(b.String()), "t.csv", dataset.Options{ID: "id", AutoCategorical: true, Drop: []string{"note"}, KeepDropped: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Table(context.Background(), &SMOTE{KNeighbors: 3}, d, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rows() != 100 || len(r.IDs) != 100 || len(r.Text) != 1 || len(r.Text[0].Cells) != 100 {
		t.Fatalf("%d rows, %d ids, text %d", r.Rows(), len(r.IDs), len(r.Text))
	}
	cat := r.Features[1:4] // clinic=east, north, west: one-hot
	if len(r.Features) != 4 || !strings.HasPrefix(cat[0], "clinic=") || !strings.HasPrefix(cat[2], "clinic=") {
		t.Fatalf("features %q", r.Features)
	}
	for i := range 60 {
		if r.IDs[i] != d.IDs[i] || r.Text[0].Cells[i] != d.Text[0].Cells[i] || !slices.Equal(r.X.RawRowView(i), d.X.RawRowView(i)) {
			t.Fatalf("row %d: %q %q, want %q %q", i, r.IDs[i], r.Text[0].Cells[i], d.IDs[i], d.Text[0].Cells[i])
		}
	}
	for i := 60; i < 100; i++ {
		if want := fmt.Sprintf("smote-%d", i-59); r.IDs[i] != want || r.Text[0].Cells[i] != "" || r.Y[i] != 1 {
			t.Errorf("synthetic row %d: id %q note %q label %d", i, r.IDs[i], r.Text[0].Cells[i], r.Y[i])
		}
		sum := 0.0
		for _, v := range r.X.RawRowView(i)[1:4] {
			if v != 0 && v != 1 {
				t.Errorf("synthetic row %d: one-hot value %v", i, v)
			}
			sum += v
		}
		if sum > 1 || math.IsNaN(sum) {
			t.Errorf("synthetic row %d: one-hot sum %v", i, sum)
		}
	}
	// An input id of the synthetic form is refused.
	d.IDs[3] = "smote-7"
	if _, err := Table(context.Background(), &SMOTE{KNeighbors: 3}, d, learn.Env{Seed: 1}); !errors.Is(err, learn.ErrData) || !strings.Contains(err.Error(), `row 4 has the id "smote-7"`) {
		t.Errorf("synthetic-looking id: %v", err)
	}
}
