package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
)

// loadData reads a dataset with the bench's options; how its columns
// were read enters the settings hash only when not the default read of
// a table of numbers (earlier hashes stand).
func TestLoadDataColumns(t *testing.T) {
	dir := t.TempDir()
	numbers := filepath.Join(dir, "n.csv")
	text := filepath.Join(dir, "t.csv")
	var nb, tb strings.Builder
	nb.WriteString("a,b,label\n")
	tb.WriteString("id,a,clinic,label\n")
	for i := range 30 {
		y := min(i%4, 1) ^ 1
		fmt.Fprintf(&nb, "1,%d,%d\n", i%10, y)
		fmt.Fprintf(&tb, "r%02d,%d,%s,%d\n", i, i%10, []string{"east", "west"}[i%2], y)
	}
	os.WriteFile(numbers, []byte(nb.String()), 0o644)
	os.WriteFile(text, []byte(tb.String()), 0o644)
	training := dataset.Options{AutoCategorical: true, RefuseLabelLike: true}
	d, err := loadData(numbers, training)
	if err != nil || d.columns != "" {
		t.Fatalf("numbers: %v, columns %q", err, d.columns)
	}
	if _, err := loadData(text, dataset.Options{}); err == nil || !strings.Contains(err.Error(), "not a number") {
		t.Error("text column read as numbers")
	}
	training.ID = "id"
	d, err = loadData(text, training)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"label":"label","classes":["0","1"],"features":["a","clinic=east","clinic=west"],"id":"id"}`; d.columns != want || d.d.Cols() != 3 {
		t.Errorf("columns %s, want %s", d.columns, want)
	}
	training.Drop = []string{"a"}
	d2, err := loadData(text, training)
	if err != nil {
		t.Fatal(err)
	}
	h1, _ := settingsHash(d, Spec{Name: "tree"}, "", ProtocolSklearn, objectiveName("", 0), nil)
	h2, _ := settingsHash(d2, Spec{Name: "tree"}, "", ProtocolSklearn, objectiveName("", 0), nil)
	if h1 == h2 {
		t.Error("dropping a column leaves the settings hash as it was")
	}
}
