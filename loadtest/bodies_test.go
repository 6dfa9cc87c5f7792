package loadtest

import (
	"strings"
	"testing"
)

// TestCSVBodies: bodies carry the header then rows rows each, cycling
// through the table; a table without rows is an error naming it.
func TestCSVBodies(t *testing.T) {
	b, err := CSVBodies(strings.NewReader("a,b\n1,2\n3,\"x,y\"\n5,6\n"), "t.csv", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 1 || string(b[0]) != "a,b\n1,2\n3,\"x,y\"\n" {
		t.Errorf("2 rows per body: %q", b)
	}
	b, err = CSVBodies(strings.NewReader("a\n1\n2\n3\n"), "t.csv", 1)
	if err != nil || len(b) != 3 || string(b[2]) != "a\n3\n" {
		t.Errorf("1 row per body: %q, %v", b, err)
	}
	// More rows per body than the table has: they cycle.
	b, err = CSVBodies(strings.NewReader("a\n1\n2\n"), "t.csv", 3)
	if err != nil || len(b) != 1 || string(b[0]) != "a\n1\n2\n1\n" {
		t.Errorf("cycling: %q, %v", b, err)
	}
	var many strings.Builder
	many.WriteString("a\n")
	for range MaxBodies + 10 {
		many.WriteString("1\n")
	}
	if b, err := CSVBodies(strings.NewReader(many.String()), "t.csv", 1); err != nil || len(b) != MaxBodies {
		t.Errorf("%d rows: %d bodies, %v", MaxBodies+10, len(b), err)
	}
	for _, text := range []string{"", "a,b\n", "a,b\n1,\"2\n"} {
		if _, err := CSVBodies(strings.NewReader(text), "t.csv", 1); err == nil || !strings.HasPrefix(err.Error(), "t.csv: ") {
			t.Errorf("%q: %v", text, err)
		}
	}
}
