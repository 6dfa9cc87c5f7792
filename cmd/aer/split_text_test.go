package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSplitTextColumns: a file with an id and a text (categorical) column
// splits into parts that hold the same columns and cells as the file, the
// text written back as text (not one-hot), every row in exactly one part.
func TestSplitTextColumns(t *testing.T) {
	dir := t.TempDir()
	colors := []string{"red", "green", "blue", ""}
	var b strings.Builder
	b.WriteString("id,color,a,label\n")
	want := map[string]string{}
	for i := range 40 {
		line := fmt.Sprintf("r%02d,%s,%d.5,%d", i, colors[i%4], i, btoi(i%5 == 0))
		b.WriteString(line + "\n")
		want[fmt.Sprintf("r%02d", i)] = line
	}
	data := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := aer(t, "split", "--data", data, "--id", "id", "--out-dir", dir, "--seed", "3"); code != 0 {
		t.Fatalf("split: %s", errOut)
	}
	seen := map[string]bool{}
	for _, part := range []string{"train", "valid", "test"} {
		body, err := os.ReadFile(filepath.Join(dir, "t."+part+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(body)), "\n")
		if lines[0] != "id,color,a,label" {
			t.Fatalf("%s header %q", part, lines[0])
		}
		for _, l := range lines[1:] {
			id := l[:strings.IndexByte(l, ',')]
			if l != want[id] || seen[id] {
				t.Errorf("%s: row %q, want %q once", part, l, want[id])
			}
			seen[id] = true
		}
	}
	if len(seen) != 40 {
		ids := make([]string, 0, len(seen))
		for id := range seen {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		t.Errorf("%d of 40 rows in the parts: %v", len(seen), ids)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
