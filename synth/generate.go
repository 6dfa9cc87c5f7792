package synth

import (
	"math/rand/v2"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/rng"
)

// Data is a generated data set.
type Data struct {
	// X holds the features, one row per sample.
	X *mat.Dense
	// Y holds the labels, 0 or 1 (1 is the minority under Settings.Ratio).
	Y []int
	// Features names the columns x0, x1, ... in order; the names say
	// nothing about a column's role.
	Features []string

	// Cluster is the cluster each row was drawn from; cluster k belongs to
	// class k%2, so rows with Y[i] != Cluster[i]%2 had their label flipped.
	Cluster []int
	// Centroids holds the vertex of each cluster (one row per cluster, one
	// column per informative feature), before the random covariance, shift
	// and scale.
	Centroids *mat.Dense

	// Informative[k] is the column of the k-th informative feature, the
	// k-th coordinate of Centroids.
	Informative []int
	// Redundant[k] is the column of the k-th redundant feature.
	Redundant []int
	// Repeated[k] is the column of the k-th repeated feature, a copy of
	// column RepeatedFrom[k].
	Repeated, RepeatedFrom []int
	// Noise lists the columns of the N(0, 1) features.
	Noise []int
}

// Generate draws a data set described by s (nil means all defaults) with
// the random stream of seed. It follows make_classification step by step,
// drawing in the same order, so that each step has the same distribution.
func Generate(s *Settings, seed uint64) (*Data, error) {
	p, err := s.resolve()
	if err != nil {
		return nil, err
	}
	sizes, err := p.clusterSizes()
	if err != nil {
		return nil, err
	}
	r := rng.New(seed)
	n, f, inf := p.samples, p.features, p.informative
	nc := 2 * p.clusters

	// Cluster centroids on hypercube vertices, coordinates +-classSep.
	centroids := mat.NewDense(nc, inf, nil)
	for k, v := range hypercube(nc, inf, r) {
		for j, b := range v {
			centroids.Set(k, j, (2*float64(b)-1)*p.classSep)
		}
	}
	if p.polytope {
		perCluster := make([]float64, nc)
		for k := range perCluster {
			perCluster[k] = r.Float64()
		}
		for j := range inf {
			u := r.Float64()
			for k := range nc {
				centroids.Set(k, j, centroids.At(k, j)*perCluster[k]*u)
			}
		}
	}

	x := mat.NewDense(n, f, nil)
	raw := x.RawMatrix()
	data, stride := raw.Data, raw.Stride
	for i := range n {
		row := data[i*stride : i*stride+inf]
		for j := range row {
			row[j] = r.NormFloat64()
		}
	}

	// Each cluster: N(0, I) times a random matrix (its covariance), moved
	// to its vertex.
	y := make([]int, n)
	cluster := make([]int, n)
	a := mat.NewDense(inf, inf, nil)
	stop := 0
	for k, m := range sizes {
		start := stop
		stop += m
		for i := start; i < stop; i++ {
			y[i] = k % 2
			cluster[i] = k
		}
		fillUniform(a, r)
		if m == 0 {
			continue
		}
		xk := x.Slice(start, stop, 0, inf).(*mat.Dense)
		var t mat.Dense
		t.Mul(xk, a)
		xk.Copy(&t)
		c := centroids.RawRowView(k)
		for i := start; i < stop; i++ {
			row := data[i*stride : i*stride+inf]
			for j, v := range c {
				row[j] += v
			}
		}
	}

	if p.redundant > 0 {
		b := mat.NewDense(inf, p.redundant, nil)
		fillUniform(b, r)
		var t mat.Dense
		t.Mul(x.Slice(0, n, 0, inf), b)
		x.Slice(0, n, inf, inf+p.redundant).(*mat.Dense).Copy(&t)
	}

	useful := inf + p.redundant
	from := make([]int, p.repeated)
	for k := range from {
		// make_classification's rounding: the first and last sources are
		// half as likely as the others.
		from[k] = int(float64(useful-1)*r.Float64() + 0.5)
	}
	if p.repeated > 0 {
		for i := range n {
			row := data[i*stride : (i+1)*stride]
			for k, src := range from {
				row[useful+k] = row[src]
			}
		}
	}

	if p.useless > 0 {
		for i := range n {
			row := data[i*stride+f-p.useless : (i+1)*stride]
			for j := range row {
				row[j] = r.NormFloat64()
			}
		}
	}

	// Label noise: every row draws, as make_classification does even when
	// flip_y is 0; the chosen rows then get a random label in order.
	flip := make([]bool, n)
	for i := range flip {
		flip[i] = r.Float64() < p.flipY
	}
	for i, fl := range flip {
		if fl {
			y[i] = r.IntN(2)
		}
	}

	shift := make([]float64, f)
	scale := make([]float64, f)
	for j := range f {
		shift[j] = p.shift
		scale[j] = p.scale
	}
	if p.randShift {
		for j := range shift {
			shift[j] = (2*r.Float64() - 1) * p.classSep
		}
	}
	if p.randScale {
		for j := range scale {
			scale[j] = 1 + 100*r.Float64()
		}
	}
	if p.randShift || p.randScale || p.shift != 0 || p.scale != 1 {
		for i := range n {
			row := data[i*stride : (i+1)*stride]
			for j := range row {
				row[j] = (row[j] + shift[j]) * scale[j]
			}
		}
	}

	// col[j] is the generated column that ends up at column j.
	col := make([]int, f)
	for j := range col {
		col[j] = j
	}
	if p.shuf {
		r.Shuffle(n, func(i, j int) {
			ri := data[i*stride : (i+1)*stride]
			rj := data[j*stride : (j+1)*stride]
			for c := range ri {
				ri[c], rj[c] = rj[c], ri[c]
			}
			y[i], y[j] = y[j], y[i]
			cluster[i], cluster[j] = cluster[j], cluster[i]
		})
		r.Shuffle(f, func(i, j int) { col[i], col[j] = col[j], col[i] })
		buf := make([]float64, f)
		for i := range n {
			row := data[i*stride : (i+1)*stride]
			for j, c := range col {
				buf[j] = row[c]
			}
			copy(row, buf)
		}
	}

	d := &Data{
		X:            x,
		Y:            y,
		Features:     make([]string, f),
		Cluster:      cluster,
		Centroids:    centroids,
		Informative:  make([]int, inf),
		Redundant:    make([]int, p.redundant),
		Repeated:     make([]int, p.repeated),
		RepeatedFrom: make([]int, p.repeated),
		Noise:        make([]int, p.useless),
	}
	at := make([]int, f) // at[c] is where generated column c went
	for j, c := range col {
		at[c] = j
		d.Features[j] = "x" + strconv.Itoa(j)
	}
	for j, c := range at {
		switch {
		case j < inf:
			d.Informative[j] = c
		case j < useful:
			d.Redundant[j-inf] = c
		case j < useful+p.repeated:
			d.Repeated[j-useful] = c
			d.RepeatedFrom[j-useful] = at[from[j-useful]]
		default:
			d.Noise[j-useful-p.repeated] = c
		}
	}
	return d, nil
}

// fillUniform fills m row by row with values uniform in [-1, 1).
func fillUniform(m *mat.Dense, r *rand.Rand) {
	rows, cols := m.Dims()
	for i := range rows {
		for j := range cols {
			m.Set(i, j, 2*r.Float64()-1)
		}
	}
}

// Flipped returns the number of rows whose label was flipped by label
// noise (Settings.FlipY): those whose label is not their cluster's class.
func (d *Data) Flipped() int {
	n := 0
	for i, y := range d.Y {
		if y != d.Cluster[i]%2 {
			n++
		}
	}
	return n
}

// Dataset returns d as a labelled data set named name, sharing d's matrix
// and labels; the label column is "label" with classes "0" and "1".
func (d *Data) Dataset(name string) *dataset.Dataset {
	_, cols := d.X.Dims()
	return &dataset.Dataset{
		Name:            name,
		Features:        d.Features,
		X:               d.X,
		Y:               d.Y,
		Label:           "label",
		Classes:         []string{"0", "1"},
		MissingByColumn: make([]int, cols),
	}
}
