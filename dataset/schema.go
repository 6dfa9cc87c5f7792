package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrSchema is returned (wrapped) when a table's columns do not match a
// model's schema.
var ErrSchema = errors.New("data columns do not match the model")

// Schema is the layout of the training data of a model: what a table to
// score must have, and what it may carry besides. It is the one schema
// type of the module: model files (package modelfile) store it as it is.
type Schema struct {
	// Features are the feature column names in model order (a categorical
	// column contributes one feature per value, named column=value).
	Features []string `json:"features"`
	// Label is the label column name.
	Label string `json:"label"`
	// Classes are the label values as written in the data, one per
	// class in class order (Dataset.Classes): [0] the negative and [1]
	// the positive class of a two-class schema. Model files hold two
	// classes as "classes" and three or more as "labels" (see
	// MarshalJSON).
	Classes []string `json:"classes"`
	// Weight names the row-weight column of the training data, if any;
	// data to score may carry it, and it is not a feature.
	Weight string `json:"weight,omitempty"`
	// Drop names columns of the training data that were left out (aer
	// fit --drop); data to score may carry them, and they are ignored.
	Drop []string `json:"drop,omitempty"`
	// ID names the row-identifier column of the training data (aer fit
	// --id), if any: never a feature; data to score may carry it, and aer
	// predict writes it back beside each score.
	ID string `json:"id,omitempty"`
	// Categories are the categorical (string) columns of the training
	// data, one-hot encoded into the features named column=value, in
	// the order of their values; nil without any.
	Categories []Category `json:"categories,omitempty"`
}

// Schema returns the dataset's schema: its features, label, classes,
// weight, dropped, id and categorical columns.
func (d *Dataset) Schema() Schema {
	var cats []Category
	for _, c := range d.Categories {
		cats = append(cats, Category{Column: c.Column, Values: slices.Clone(c.Values)})
	}
	return Schema{Features: slices.Clone(d.Features), Label: d.Label, Classes: slices.Clone(d.Classes), Weight: d.WeightColumn,
		Drop: slices.Clone(d.Dropped), ID: d.IDColumn, Categories: cats}
}

// ReadOptions are the options for reading data to score with a model of
// schema s: the label when the data has it (with the model's classes, one
// class allowed), the weight, dropped and id columns recognised and left
// out of the features, categorical columns encoded with the model's value
// lists.
func (s *Schema) ReadOptions() Options {
	return Options{
		Label: s.Label, Classes: s.Classes, LabelOptional: true, AllowOneClass: true,
		Weight: s.Weight, WeightOptional: true, Drop: s.Drop, ID: s.ID, Categories: s.Categories,
	}
}

// RawColumns are the columns of data a model of schema s reads, as they
// are named in a file: the numeric features and the categorical columns
// (each one once, by its own name), in the schema's order.
func (s *Schema) RawColumns() []string {
	catOf := map[string]string{}
	for _, c := range s.Categories {
		for _, n := range c.Names() {
			catOf[n] = c.Column
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range s.Features {
		name := f
		if c, ok := catOf[f]; ok {
			name = c
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// Columns maps the model's features onto data columns named features:
// idx[j] is the data column of model feature j. Columns may come in any
// order; a missing or unexpected column is an ErrSchema error naming
// every such column.
func (s *Schema) Columns(features []string) (idx []int, err error) {
	pos := make(map[string]int, len(features))
	for i, f := range features {
		pos[f] = i
	}
	var missing, extra []string
	idx = make([]int, len(s.Features))
	want := make(map[string]bool, len(s.Features))
	for j, f := range s.Features {
		want[f] = true
		i, ok := pos[f]
		if !ok {
			missing = append(missing, f)
			continue
		}
		idx[j] = i
	}
	for _, f := range features {
		if !want[f] {
			extra = append(extra, f)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return idx, nil
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing "+quoteAll(missing))
	}
	if len(extra) > 0 {
		parts = append(parts, "unexpected "+quoteAll(extra))
	}
	return nil, fmt.Errorf("%w: %s (the model expects %s)", ErrSchema, strings.Join(parts, "; "), quoteAll(s.Features))
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// NumClasses returns the number of classes: len(Classes), at least 2.
func (s *Schema) NumClasses() int {
	return max(len(s.Classes), 2)
}

// ClassNames returns a copy of the class names, in class order.
func (s *Schema) ClassNames() []string {
	return slices.Clone(s.Classes)
}

// ClassPair returns the two classes of a two-class list as a pair ([0]
// negative, [1] positive), and two empty strings for any other list: the
// form of the binary outputs (predictions files, JSON reports).
func ClassPair(classes []string) (pair [2]string) {
	if len(classes) == 2 {
		copy(pair[:], classes)
	}
	return pair
}

// schemaJSON is a Schema as model files hold it: two classes in
// "classes", more in "labels" beside two empty "classes".
type schemaJSON struct {
	Features   []string   `json:"features"`
	Label      string     `json:"label"`
	Classes    [2]string  `json:"classes"`
	Labels     []string   `json:"labels,omitempty"`
	Weight     string     `json:"weight,omitempty"`
	Drop       []string   `json:"drop,omitempty"`
	ID         string     `json:"id,omitempty"`
	Categories []Category `json:"categories,omitempty"`
}

// MarshalJSON writes s as model files have always held a schema: a
// two-class schema's classes in "classes" (two empty strings without
// any), the classes of a schema of three or more in "labels", with
// "classes" two empty strings.
func (s Schema) MarshalJSON() ([]byte, error) {
	j := schemaJSON{Features: s.Features, Label: s.Label, Weight: s.Weight, Drop: s.Drop, ID: s.ID, Categories: s.Categories}
	if len(s.Classes) > 2 {
		j.Labels = s.Classes
	} else {
		j.Classes = ClassPair(s.Classes)
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a schema as MarshalJSON writes it: "labels", when
// present, are the classes; else the two "classes".
func (s *Schema) UnmarshalJSON(b []byte) error {
	var j schemaJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = Schema{Features: j.Features, Label: j.Label, Weight: j.Weight, Drop: j.Drop, ID: j.ID, Categories: j.Categories}
	if j.Labels != nil {
		s.Classes = j.Labels
	} else {
		s.Classes = j.Classes[:]
	}
	return nil
}
