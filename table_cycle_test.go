package aer_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/learn"
)

// selfPtr is a type that points to itself.
type selfPtr *selfPtr

// TestTableFromRowsCycles: values and types that refer to themselves
// are refused with learn.ErrData naming the row and column, promptly,
// where TableFromRows followed them forever; a nil map row is refused,
// not a panic.
func TestTableFromRowsCycles(t *testing.T) {
	var a any
	a = &a
	var p selfPtr
	p = &p
	m := map[string]any{"x": 1.0}
	m["self"] = m
	s := []any{1.0}
	s[0] = s
	for _, tc := range []struct {
		name string
		rows any
		want string
	}{
		{"pointer to itself through any", []map[string]any{{"x": 1.0, "y": a}}, `row 0, column "y": a value more than 64 pointers`},
		{"self pointer cell", []map[string]any{{"x": p}}, `row 0, column "x": a value more than 64 pointers`},
		{"self pointer rows", []selfPtr{p}, "more than 64 pointers deep"},
		{"map holding itself", []map[string]any{m}, `row 0, column "self"`},
		{"slice holding itself", []map[string]any{{"x": s}}, `row 0, column "x"`},
		{"nil map row", []*map[string]any{{"x": 1.0}, nil}, "row 1 is nil"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := aer.TableFromRows(tc.rows, nil)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, learn.ErrData) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: got %v, want learn.ErrData and %q", tc.name, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: TableFromRows still runs after 10s", tc.name)
		}
	}
	// A chain of pointers a value may really have still reads.
	v := 2.5
	pv := &v
	var iv any = &pv
	tab, err := aer.TableFromRows([]map[string]any{{"x": iv}, {"x": 1}}, &aer.ReadOptions{Unlabeled: true})
	if err != nil || tab.Rows() != 2 {
		t.Fatalf("pointer chain: %v", err)
	}
	if got := tab.Dataset().X.At(0, 0); got != 2.5 {
		t.Errorf("x of row 0 = %v, want 2.5", got)
	}
}
