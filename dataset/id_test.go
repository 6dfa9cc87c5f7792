package dataset

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestIDColumn(t *testing.T) {
	text := "id,a,label\nr1,1,0\n\"r,2\",2,1\nr3,3,1\nr4,NA,0\n"
	d, err := Read(strings.NewReader(text), "t.csv", Options{ID: "id"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(d.Features, ",") != "a" || d.IDColumn != "id" || strings.Join(d.IDs, "|") != "r1|r,2|r3|r4" {
		t.Fatalf("features %v, id column %q, ids %q", d.Features, d.IDColumn, d.IDs)
	}
	if s := d.Subset([]int{2, 1}); strings.Join(s.IDs, "|") != "r3|r,2" || s.IDColumn != "id" {
		t.Errorf("subset ids %q", s.IDs)
	}
	// Written back with the id first, it reads to the same table.
	var buf bytes.Buffer
	if err := WriteCSV(&buf, d); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "id,a,label\nr1,1,0\n\"r,2\",2,1\n") {
		t.Errorf("written:\n%s", buf.String())
	}
	d2, err := Read(&buf, "t.csv", Options{ID: "id"})
	if err != nil || strings.Join(d2.IDs, "|") != strings.Join(d.IDs, "|") {
		t.Errorf("re-read: %v %q", err, d2.IDs)
	}
	// Optional: a file without it has no ids.
	d, err = Read(strings.NewReader("a,label\n1,0\n2,1\n3,1\n4,0\n"), "t.csv", Options{ID: "id"})
	if err != nil || d.IDs != nil || d.IDColumn != "" {
		t.Errorf("no id column: %v %v %q", err, d.IDs, d.IDColumn)
	}
	_, err = Read(strings.NewReader(text), "t.csv", Options{ID: "label"})
	if !errors.Is(err, ErrIDColumn) || !strings.Contains(err.Error(), `t.csv: line 1, column "label": the id column cannot be the label, weight or split column`) {
		t.Errorf("id = label: %v", err)
	}
}

func TestLabelLikeRefused(t *testing.T) {
	for _, c := range []struct {
		text string
		opt  Options
		msg  string // "" when accepted
	}{
		{"a,Label,label\n1,0,0\n2,1,1\n3,1,1\n4,0,0\n", Options{}, `t.csv: line 1, column "Label": a feature column is named like a label (the label is "label": a second outcome leaks into training; leave it out with --drop Label, or choose it as the label with --label Label)`},
		{"a,target,y\n1,0,0\n2,1,1\n3,1,1\n4,0,0\n", Options{}, `column "target": a feature column is named like a label (the label is "y"`},
		{"a,Outcome,fraud\n1,0,0\n2,1,1\n3,1,1\n4,0,0\n", Options{Label: "fraud"}, `column "Outcome"`},
		{"a,CLASS,fraud\n1,0,0\n2,1,1\n3,1,1\n4,0,0\n", Options{Label: "fraud"}, `column "CLASS"`},
		{"a,target,y\n1,0,0\n2,1,1\n3,1,1\n4,0,0\n", Options{Drop: []string{"target"}}, ""},
		{"a,target,y\n1,0,0\n2,1,1\n3,1,1\n4,0,0\n", Options{ID: "target"}, ""},
		{"a,classes,y\n1,0,0\n2,1,1\n3,1,1\n4,0,0\n", Options{}, ""},
	} {
		c.opt.RefuseLabelLike = true
		_, err := Read(strings.NewReader(c.text), "t.csv", c.opt)
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("%q: %v", c.text, err)
		case c.msg != "" && (!errors.Is(err, ErrLabelLike) || !strings.Contains(err.Error(), c.msg)):
			t.Errorf("%q: %v, want %s", c.text, err, c.msg)
		}
	}
	// Without the option (aer info, predictions) the column is a feature.
	if _, err := Read(strings.NewReader("a,target,y\n1,0,0\n2,1,1\n3,1,1\n4,0,0\n"), "t.csv", Options{}); err != nil {
		t.Error(err)
	}
}
