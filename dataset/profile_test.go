package dataset

import (
	"fmt"
	"strings"
	"testing"
)

func TestDecodeProfile(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("id,num,color,rare,sep,leak,y_copy,w,split,gone,label\n")
	for i := range 2000 {
		y := 0
		if i%10 == 0 {
			y = 1
		}
		color := []string{"red", "blue", "green"}[i%3]
		rare := "0"
		if i == 7 {
			rare = "1"
		}
		num := fmt.Sprint(i % 7)
		if i%4 == 0 {
			num = "NA"
		}
		fmt.Fprintf(&sb, "r%d,%s,%s,%s,%d,%s,%d,1,train,x,%d\n", i, num, color, rare, i%10*7+y*100, []string{"no", "yes"}[y], y, y)
	}
	opt := Options{ID: "id", Weight: "w", Drop: []string{"gone"}, AutoCategorical: true}
	d, cols, err := DecodeProfile(strings.NewReader(sb.String()), "p.csv", opt, 100)
	if err != nil {
		t.Fatal(err)
	}
	if d.Rows() != 2000 || len(cols) != 11 {
		t.Fatalf("%d rows, %d profiles", d.Rows(), len(cols))
	}
	want := []ColumnProfile{
		{Name: "id", Type: "id", Distinct: 100, DistinctCapped: true},
		{Name: "num", Type: "numeric", Distinct: 7, Missing: 0.25},
		{Name: "color", Type: "categorical", Distinct: 3},
		{Name: "rare", Type: "numeric", Distinct: 2, NearConstant: true},
		{Name: "sep", Type: "numeric", Distinct: 10, LabelLike: true, PerfectPredictor: "values"},
		{Name: "leak", Type: "categorical", Distinct: 2, LabelLike: true, PerfectPredictor: "values"},
		{Name: "y_copy", Type: "numeric", Distinct: 2, LabelLike: true, PerfectPredictor: "values"},
		{Name: "w", Type: "weight", Distinct: 1, Constant: true},
		{Name: "split", Type: "split", Distinct: 1, Constant: true},
		{Name: "gone", Type: "dropped", Distinct: 1, Constant: true},
		{Name: "label", Type: "label", Distinct: 2},
	}
	for j, w := range want {
		if cols[j] != w {
			t.Errorf("column %d:\n got %+v\nwant %+v", j, cols[j], w)
		}
	}
	// A threshold separates the classes without repeating values.
	_, cols, err = DecodeProfile(strings.NewReader("score,name,label\n0.1,a,0\n0.2,b,0\n0.9,c,1\n0.8,d,1\n0.3,e,0\n"), "t.csv", Options{AutoCategorical: true}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if cols[0].PerfectPredictor != "threshold" || !cols[0].LabelLike || cols[1].LabelLike {
		t.Errorf("threshold: %+v %+v", cols[0], cols[1])
	}
}
