package serve

import (
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// swapModel replaces the model served as name by wrap(model).
func swapModel(s *Server, name string, wrap func(learn.Scorer) learn.Scorer) {
	sl := s.models[name]
	cur := sl.cur.Load()
	next := *cur
	next.model = wrap(cur.model)
	sl.cur.Store(&next)
}

// strict is a model that cannot score missing values: it refuses them
// (an error wrapping learn.ErrData), or with nan gives a NaN score.
type strict struct {
	learn.Scorer
	nan bool
}

func (s strict) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	p, err := s.Scorer.PositiveProba(x, dst)
	if err != nil {
		return nil, err
	}
	r, c := x.Dims()
	for i := range r {
		for j := range c {
			if math.IsNaN(x.At(i, j)) {
				if !s.nan {
					return nil, fmt.Errorf("%w: row %d has a missing value", learn.ErrData, i+1)
				}
				p[i] = math.NaN()
			}
		}
	}
	return p, nil
}

func (b *blocking) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	close(b.started)
	<-b.release
	return b.Scorer.PositiveProba(x, dst)
}

func denseRow(x []float64) *mat.Dense { return mat.NewDense(1, len(x), x) }

func slogTo(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

func nopCloser(r io.Reader) io.ReadCloser { return io.NopCloser(r) }

// NumClasses is 2: strict scores the positive class (PositiveProba).
func (s strict) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (s strict) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(s, x, dst)
}

// NumClasses is 2: blocking scores the positive class (PositiveProba).
func (b *blocking) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (b *blocking) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(b, x, dst)
}
