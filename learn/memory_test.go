package learn_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aer-go/aer/learn"
)

// sized is a method whose fit needs 100 bytes a training row.
type sized struct{ noEstimate }

func (sized) FitMemory(s learn.Shape) int64 { return 100 * int64(s.Rows) }

type noEstimate struct{}

func (noEstimate) Name() string                      { return "sized" }
func (noEstimate) Set(key, value string) error       { return learn.ErrParam }
func (noEstimate) Params() []learn.Param             { return nil }
func (noEstimate) Load([]byte) (learn.Scorer, error) { return nil, errors.New("no") }
func (noEstimate) Fit(context.Context, *learn.Data, *learn.Data, learn.Env) (learn.Scorer, error) {
	return nil, errors.New("no")
}

func TestCheckMemory(t *testing.T) {
	s := learn.Shape{Rows: 30 << 20, Features: 5, ValidRows: 1000}
	if got, ok := learn.FitMemory(sized{}, s); got != 3000<<20 || !ok {
		t.Errorf("FitMemory = %d, %v", got, ok)
	}
	if err := learn.CheckMemory(sized{}, s, 3000<<20); err != nil {
		t.Errorf("needs exactly what is available: %v", err)
	}
	err := learn.CheckMemory(sized{}, s, 2<<30)
	if !errors.Is(err, learn.ErrMemory) || !strings.Contains(err.Error(), "needs about 2.93 GB beyond the tables, and 2.00 GB are available") ||
		!strings.Contains(err.Error(), "31457280 training rows and 1000 validation rows of 5 features") {
		t.Errorf("CheckMemory: %v", err)
	}
	if _, ok := learn.FitMemory(noEstimate{}, s); ok {
		t.Error("a method without an estimate has one")
	}
	if err := learn.CheckMemory(noEstimate{}, s, 1); err != nil {
		t.Errorf("a method without an estimate is refused: %v", err)
	}
}

// A method that estimates its fit's memory is refused before the fit
// when the estimate exceeds the memory available.
func ExampleCheckMemory() {
	s := learn.Shape{Rows: 50_000_000, Features: 20}
	fmt.Println(learn.CheckMemory(sized{}, s, 8<<30))
	fmt.Println(learn.CheckMemory(sized{}, s, 2<<30))
	// Output:
	// <nil>
	// not enough memory for the fit: method sized on 50000000 training rows of 20 features needs about 4.66 GB beyond the tables, and 2.00 GB are available; fit on a sample of the rows (aer split), or on a machine with more memory
}
