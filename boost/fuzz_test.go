package boost

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// FuzzUnmarshal: decoding arbitrary bytes either fails or gives a model
// that predicts without panicking.
func FuzzUnmarshal(f *testing.F) {
	x := mat.NewDense(6, 2, []float64{1, 5, 2, math.NaN(), 3, 6, 4, 6, 5, 5, 6, 6})
	m, err := Train(context.Background(), Data{X: x, Y: []int{0, 0, 0, 1, 1, 1}}, nil, &Settings{NEstimators: 2, MaxDepth: 2, MinChildWeight: -1})
	if err != nil {
		f.Fatal(err)
	}
	b, _ := m.MarshalBinary()
	f.Add(b)
	f.Add([]byte(`{"num_features":1,"trees":[{"feature":[0,-1,-1],"threshold":[1,0,0],"default_left":[true,false,false],"left":[1,-1,-1],"value":[0,1,2],"gain":[1,0,0],"cover":[1,1,1]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var m Model
		if err := m.UnmarshalBinary(data); err != nil {
			return
		}
		if m.NumFeatures > 1000 {
			return
		}
		row := make([]float64, m.NumFeatures)
		m.PredictRow(row)
		for i := range row {
			row[i] = math.NaN()
		}
		m.PredictRow(row)
	})
}
