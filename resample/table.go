package resample

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
)

// Every sampler of this package reports its rows' origins.
var (
	_ Tracer = (*RUS)(nil)
	_ Tracer = (*SMOTE)(nil)
	_ Tracer = (*Tomek)(nil)
	_ Tracer = (*SMOTETomek)(nil)
)

// SyntheticID is the prefix of the ids Table gives synthetic rows:
// smote-1, smote-2, ... in output order.
const SyntheticID = "smote-"

// Table resamples the table d with s and returns the resampled table,
// every column of d carried along: the rows s keeps (in d's order) keep
// their ids, weights and text cells; the synthetic rows follow, with
// the ids smote-1, smote-2, ... (SyntheticID; an input id of that form
// is refused) and empty text cells (Dataset.Text: missing). In each
// categorical column (d.Categories, one-hot encoded in d.X) a synthetic
// row takes the category of its nearer parent (the first when the gap is
// below 1/2), so it is written back as one of the column's values;
// imbalanced-learn 0.10's SMOTENC takes the most frequent category
// among the seed row's k nearest neighbours instead (ties at random), and
// sets the one-hot columns to half the median standard deviation of the
// minority's numeric features for the distances, where here every
// one-hot column is 0 or 1 as encoded (Tomek links alike). A split
// column is refused (resample the training rows only).
func Table(ctx context.Context, s Tracer, d *dataset.Dataset, env learn.Env) (*dataset.Dataset, error) {
	if d.Split != nil {
		return nil, fmt.Errorf("%s: %w: the table has a split column: resample the training rows only", s.Name(), learn.ErrData)
	}
	if err := checkSyntheticIDs(d.IDs); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name(), err)
	}
	out, origins, err := s.Trace(ctx, &learn.Data{X: d.X, Y: d.Y, W: d.W, Features: d.Features}, env)
	if err != nil {
		return nil, err
	}
	r := &dataset.Dataset{
		Name: d.Name, Features: d.Features, X: out.X, Y: out.Y, W: out.W,
		WeightColumn: d.WeightColumn, Dropped: d.Dropped, IDColumn: d.IDColumn, Categories: d.Categories,
		Columns: d.Columns, Label: d.Label, Classes: d.Classes,
	}
	if err := nearerCategories(d, r, origins); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name(), err)
	}
	synthetic := 0
	if d.IDs != nil {
		r.IDs = make([]string, len(origins))
	}
	for _, t := range d.Text {
		t.Cells = make([]string, len(origins))
		r.Text = append(r.Text, t)
	}
	for i, o := range origins {
		if o.Row < 0 {
			synthetic++
			if r.IDs != nil {
				r.IDs[i] = SyntheticID + strconv.Itoa(synthetic)
			}
			continue
		}
		if r.IDs != nil {
			r.IDs[i] = d.IDs[o.Row]
		}
		for k := range r.Text {
			r.Text[k].Cells[i] = d.Text[k].Cells[o.Row]
		}
	}
	r.MissingByColumn = missingByColumn(r)
	return r, nil
}

// checkSyntheticIDs refuses ids that Table would give synthetic rows.
func checkSyntheticIDs(ids []string) error {
	for i, id := range ids {
		if n, ok := strings.CutPrefix(id, SyntheticID); ok {
			if _, err := strconv.Atoi(n); err == nil {
				return fmt.Errorf("%w: row %d has the id %q, of the form given to synthetic rows (%sN)", learn.ErrData, i+1, id, SyntheticID)
			}
		}
	}
	return nil
}

// nearerCategories sets, in each categorical column of d, the one-hot
// features of r's synthetic rows to those of the nearer parent.
func nearerCategories(d, r *dataset.Dataset, origins []Origin) error {
	if len(d.Categories) == 0 {
		return nil
	}
	src, dst := d.X.RawMatrix(), r.X.RawMatrix()
	for _, c := range d.Categories {
		names := c.Names()
		j := slices.Index(d.Features, names[0])
		if j < 0 || j+len(names) > len(d.Features) || !slices.Equal(d.Features[j:j+len(names)], names) {
			return fmt.Errorf("categorical column %q is not one-hot encoded in the features", c.Column)
		}
		for i, o := range origins {
			if o.Row >= 0 {
				continue
			}
			parent := o.A
			if o.Gap >= 0.5 {
				parent = o.B
			}
			copy(dst.Data[i*dst.Stride+j:i*dst.Stride+j+len(names)], src.Data[parent*src.Stride+j:parent*src.Stride+j+len(names)])
		}
	}
	return nil
}

// missingByColumn counts the missing cells of each feature of d.
func missingByColumn(d *dataset.Dataset) []int {
	m := make([]int, d.Cols())
	raw := d.X.RawMatrix()
	for i := range d.Rows() {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+len(m)] {
			if math.IsNaN(v) {
				m[j]++
			}
		}
	}
	return m
}
