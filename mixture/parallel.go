package mixture

import (
	"fmt"
	"math"
	"runtime"

	"gonum.org/v1/gonum/mat"
)

// blockRows is the fixed number of rows per block. Partial sums are formed
// per block and reduced in block order, so results never depend on how
// many workers ran or which finished first.
const blockRows = 256

func numBlocks(n int) int { return (n + blockRows - 1) / blockRows }

func workerCount(w int) int {
	// More workers than cores only add buffers (one set each): a million
	// of them exhausted memory. Results do not depend on the number.
	if procs := runtime.GOMAXPROCS(0); w <= 0 || w > procs {
		w = procs
	}
	return max(w, 1)
}

// rawRows returns the backing slice and stride of x after checking that it
// has d columns (d < 0: any) and only finite values.
func rawRows(x *mat.Dense, d int) ([]float64, int, int, int, error) {
	if x == nil {
		return nil, 0, 0, 0, fmt.Errorf("mixture: nil data matrix")
	}
	if x.IsEmpty() {
		return nil, 0, 0, 0, fmt.Errorf("mixture: empty data matrix")
	}
	raw := x.RawMatrix()
	if d >= 0 && raw.Cols != d {
		return nil, 0, 0, 0, fmt.Errorf("mixture: data has %d columns, model has %d features", raw.Cols, d)
	}
	for i := 0; i < raw.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, 0, 0, 0, fmt.Errorf("mixture: row %d, column %d: value %v is not finite", i, j, v)
			}
		}
	}
	return raw.Data, raw.Stride, raw.Rows, raw.Cols, nil
}
