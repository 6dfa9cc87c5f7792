package bench

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	plotpalette "gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/aer-go/aer/metrics"
)

// seedTuning is the tuning of one seed's run.
type seedTuning struct {
	seed uint64
	t    *tuning
}

// metricLabel is a metric's name for an axis ("balanced_accuracy" as
// "balanced accuracy"); "metric" when unknown.
func metricLabel(name string) string {
	if name == "" {
		return "metric"
	}
	return strings.ReplaceAll(name, "_", " ")
}

// weightColors maps a static weight to a colour: light for 0, dark blue
// for the largest weight (Brewer's Blues ends, luminance-linear).
func weightColors(hi float64) (plotpalette.ColorMap, error) {
	cm, err := moreland.NewLuminance([]color.Color{color.NRGBA{8, 48, 107, 255}, color.NRGBA{247, 251, 255, 255}})
	if err != nil {
		return nil, err
	}
	cm = plotpalette.Reverse(cm)
	cm.SetMin(0)
	cm.SetMax(hi)
	return cm, nil
}

// weightGrid is the heat strip's grid: column c is member c, row r is the
// seed drawn r-th from the bottom; NaN where a seed has no such member.
type weightGrid struct{ z [][]float64 } // z[row][column]

func (g weightGrid) Dims() (c, r int)   { return len(g.z[0]), len(g.z) }
func (g weightGrid) Z(c, r int) float64 { return g.z[r][c] }
func (g weightGrid) X(c int) float64    { return float64(c) }
func (g weightGrid) Y(r int) float64    { return float64(r) }

// cellLabels writes each cell's weight in it, white on dark cells.
type cellLabels struct {
	g  weightGrid
	hi float64
}

func (l cellLabels) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	st := textStyle(7, draw.XCenter, draw.YCenter)
	for r, row := range l.g.z {
		for k, v := range row {
			if math.IsNaN(v) {
				continue
			}
			st.Color = color.Black
			if v > 0.55*l.hi {
				st.Color = color.White
			}
			c.FillText(st, vg.Point{X: tx(float64(k)), Y: ty(float64(r))}, fmt.Sprintf("%.2f", v))
		}
	}
}

// memberOrder returns the members of all runs, each once: those of the
// run with most members in its order, then the others' new ones. Runs
// without names call theirs "member 1", "member 2", ...
func memberOrder(runs []seedTuning) ([]string, [][]string) {
	names := make([][]string, len(runs))
	most := 0
	for i, r := range runs {
		names[i] = r.t.Members
		if len(names[i]) != len(r.t.Static) {
			names[i] = make([]string, len(r.t.Static))
			for k := range names[i] {
				names[i][k] = fmt.Sprintf("member %d", k+1)
			}
		}
		if len(names[i]) > len(names[most]) {
			most = i
		}
	}
	var order []string
	seen := map[string]bool{}
	for _, i := range append([]int{most}, seq(len(runs))...) {
		for _, n := range names[i] {
			if !seen[n] {
				seen[n] = true
				order = append(order, n)
			}
		}
	}
	return order, names
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// weightStripFigure draws the learned static weights as a heat strip: one
// column per member, one row per seed (the first seed on top), and a
// colour bar.
func weightStripFigure(title string, runs []seedTuning) (*rendered, error) {
	if len(runs) == 0 {
		return nil, errors.New("weight strip of no runs")
	}
	members, names := memberOrder(runs)
	if len(members) == 0 {
		return nil, errors.New("weight strip of no members")
	}
	col := map[string]int{}
	for k, n := range members {
		col[n] = k
	}
	g := weightGrid{z: make([][]float64, len(runs))}
	hi := 0.0
	for i, r := range runs {
		row := make([]float64, len(members))
		for k := range row {
			row[k] = math.NaN()
		}
		for k, w := range r.t.Static {
			if math.IsNaN(w) || math.IsInf(w, 0) {
				return nil, fmt.Errorf("seed %d: static weight %d is %v", r.seed, k+1, w)
			}
			row[col[names[i][k]]] = w
			hi = max(hi, w)
		}
		g.z[len(runs)-1-i] = row // first seed on top
	}
	if hi == 0 {
		hi = 1
	}
	cm, err := weightColors(hi)
	if err != nil {
		return nil, err
	}

	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.Text, p.Y.Label.Text = "member", ""
	hm := plotter.NewHeatMap(g, cm.Palette(256))
	hm.Min, hm.Max, hm.NaN = 0, hi, color.Gray{225}
	p.Add(hm)
	xt := make([]plot.Tick, len(members))
	for k, n := range members {
		xt[k] = plot.Tick{Value: float64(k), Label: n}
	}
	yt := make([]plot.Tick, len(runs))
	for i, r := range runs {
		yt[len(runs)-1-i] = plot.Tick{Value: float64(len(runs) - 1 - i), Label: fmt.Sprintf("seed %d", r.seed)}
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.ConstantTicks(xt), plot.ConstantTicks(yt)
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	p.X.Tick.Label.Font.Size = vg.Points(8)
	p.Y.Tick.Label.Font.Size = vg.Points(9)
	p.X.Padding, p.Y.Padding = 0, 0

	// The data area is wide enough for the title and the axis label,
	// which gonum/plot centres over it; cells wide enough for "0.00" get
	// their value written in.
	cellW := min(max(5*vg.Inch/vg.Length(len(members)), vg.Points(9)), vg.Points(34))
	dataW := max(vg.Length(len(members))*cellW, p.Title.TextStyle.Width(title)+vg.Points(10), p.X.Label.TextStyle.Width(p.X.Label.Text)+vg.Points(10))
	if dataW/vg.Length(len(members)) >= vg.Points(24) {
		p.Add(cellLabels{g: g, hi: hi})
	}
	// Rows at least 20 points high, together at least the colour bar's
	// 110 points.
	cellH := max(vg.Points(20), vg.Points(110)/vg.Length(len(runs)))
	longest := vg.Length(0)
	for _, n := range members {
		longest = max(longest, p.X.Tick.Label.Width(n))
	}
	seedW := p.Y.Tick.Label.Width(fmt.Sprintf("seed %d", runs[len(runs)-1].seed))
	plotW := dataW + seedW + vg.Points(24)
	h := vg.Length(len(runs))*cellH + longest + vg.Points(70)

	bar := plot.New()
	bar.HideX()
	bar.Y.Label.Text = "static weight"
	bar.Y.Tick.Label.Font.Size = vg.Points(9)
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	barW := vg.Points(75)
	return render(plotW+barW, h, func(c draw.Canvas) {
		// The colour bar spans the strip's rows: below the title, above
		// the member names.
		p.Draw(draw.Crop(c, vg.Points(4), -barW, 0, 0))
		bottom := longest + vg.Points(36)
		top := vg.Points(22)
		bar.Draw(draw.Crop(c, c.Max.X-c.Min.X-barW+vg.Points(10), -vg.Points(12), bottom, -top))
	})
}

// chosenGlyph is the glyph that marks a seed's chosen value on its curve.
func chosenGlyph(i int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: palette[i%len(palette)], Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
}

// nearest returns the index of the n values x(k) nearest v, -1 for none.
func nearest(n int, x func(int) float64, v float64) int {
	best := -1
	for k := range n {
		if best < 0 || math.Abs(x(k)-v) < math.Abs(x(best)-v) {
			best = k
		}
	}
	return best
}

// markChosen adds a circle at (x, y) in seed i's colour.
func markChosen(p *plot.Plot, x, y float64, i int) error {
	sc, err := plotter.NewScatter(plotter.XYs{{X: x, Y: y}})
	if err != nil {
		return err
	}
	sc.GlyphStyle = chosenGlyph(i)
	p.Add(sc)
	return nil
}

// lambdaFigure draws the validation metric against lambda, each lambda at
// its best delta, one line per seed, the chosen lambda circled.
func lambdaFigure(title, metric string, runs []seedTuning) (*rendered, error) {
	p := newPlot(title, "lambda (weight of the likelihood weights)", "validation "+metricLabel(metric)+" (best delta)")
	lo, hi := math.Inf(1), math.Inf(-1)
	var names []string
	for i, r := range runs {
		xy := make(plotter.XYs, len(r.t.ByLambda))
		for k, q := range r.t.ByLambda {
			xy[k] = plotter.XY{X: q.Lambda, Y: q.Metric}
			lo, hi = min(lo, q.Metric), max(hi, q.Metric)
		}
		if err := addLine(p, xy, i); err != nil {
			return nil, err
		}
		if k := nearest(len(xy), func(k int) float64 { return xy[k].X }, r.t.Lambda); k >= 0 {
			if err := markChosen(p, xy[k].X, xy[k].Y, i); err != nil {
				return nil, err
			}
		}
		names = append(names, fmt.Sprintf("seed %d (lambda %.2f)", r.seed, r.t.Lambda))
	}
	// The curve is often flat near its best: the y axis spans the data.
	if !(lo <= hi) {
		lo, hi = 0, 1
	}
	pad := max((hi-lo)*0.1, 0.005)
	p.Y.Min, p.Y.Max = lo-pad, hi+pad
	return renderWithLegend(p, names)
}

// deltaFigure draws the validation metric against delta at the chosen
// lambda, one line per seed, the chosen delta circled.
func deltaFigure(title, metric string, runs []seedTuning) (*rendered, error) {
	p := newPlot(title, "delta (decision threshold on the score)", "validation "+metricLabel(metric))
	var names []string
	for i, r := range runs {
		xy := make(plotter.XYs, len(r.t.ByDelta))
		for k, q := range r.t.ByDelta {
			xy[k] = plotter.XY{X: q.Delta, Y: q.Metric}
		}
		if err := addLine(p, xy, i); err != nil {
			return nil, err
		}
		if k := nearest(len(xy), func(k int) float64 { return xy[k].X }, r.t.Delta); k >= 0 {
			if err := markChosen(p, xy[k].X, xy[k].Y, i); err != nil {
				return nil, err
			}
		}
		names = append(names, fmt.Sprintf("seed %d (delta %.2f)", r.seed, r.t.Delta))
	}
	return renderWithLegend(p, names)
}

// f1FMFigure draws, side by side, F1 and Fowlkes-Mallows (the paper's
// "G-mean") of the validation rows against delta at the chosen lambda,
// from the tuning's confusion counts, one line per seed, the chosen delta
// circled.
func f1FMFigure(title string, runs []seedTuning) (*rendered, error) {
	panels := []struct {
		label string
		f     func(metrics.Confusion) float64
	}{
		{"validation F1", metrics.Confusion.F1},
		{"validation Fowlkes-Mallows (paper's G-mean)", metrics.Confusion.FowlkesMallows},
	}
	plots := make([]*plot.Plot, len(panels))
	for j, pn := range panels {
		p := newPlot("", "delta (decision threshold on the score)", pn.label)
		for i, r := range runs {
			xy := make(plotter.XYs, len(r.t.ByDelta))
			for k, q := range r.t.ByDelta {
				c := q.Confusion
				xy[k] = plotter.XY{X: q.Delta, Y: pn.f(metrics.Confusion{TP: float64(c.TP), FP: float64(c.FP), TN: float64(c.TN), FN: float64(c.FN)})}
			}
			if err := addLine(p, xy, i); err != nil {
				return nil, err
			}
			if chosen := nearest(len(xy), func(k int) float64 { return xy[k].X }, r.t.Delta); chosen >= 0 {
				if err := markChosen(p, xy[chosen].X, xy[chosen].Y, i); err != nil {
					return nil, err
				}
			}
		}
		plots[j] = p
	}
	names := make([]string, len(runs))
	for i, r := range runs {
		names[i] = fmt.Sprintf("seed %d (delta %.2f)", r.seed, r.t.Delta)
	}
	l := legend(names)
	legendW := legendWidth(l, names)
	panelW := 4 * vg.Inch
	titleH := vg.Points(24)
	return render(vg.Length(len(plots))*panelW+legendW, plotHeight, func(c draw.Canvas) {
		c.FillText(textStyle(11, draw.XCenter, draw.YTop), vg.Point{X: c.Min.X + vg.Length(len(plots))*panelW/2, Y: c.Max.Y - vg.Points(6)}, title)
		for j, p := range plots {
			x0 := vg.Length(j) * panelW
			p.Draw(draw.Crop(c, x0, x0+panelW-(c.Max.X-c.Min.X), 0, -titleH))
		}
		l.Draw(draw.Crop(c, vg.Length(len(plots))*panelW+vg.Points(6), 0, 0, -titleH+vg.Points(12)))
	})
}

// tunings returns the tuning summaries of cell c's ok runs on dataset d,
// in seed order; runs without one (a method without the fields, or a run
// of a bench that kept no summaries) are left out.
func (rp *report) tunings(d string, c *cell) ([]seedTuning, error) {
	var runs []seedTuning
	for _, r := range c.rows {
		t, err := loadTuning(SummaryPath(rp.cfg.Out, d, c.spec, r.Seed))
		if err != nil {
			return nil, err
		}
		if t != nil {
			runs = append(runs, seedTuning{seed: r.Seed, t: t})
		}
	}
	return runs, nil
}

// tuningFigures draws the paper's figures (NOTES.md section 7) of cell c
// on dataset d when its runs' summaries have their data: the static
// weight strip, the validation metric against lambda and against delta,
// and F1 and Fowlkes-Mallows against delta; add files each one.
func (rp *report) tuningFigures(d string, c *cell, add func(key, name, caption string, r *rendered, err error) error) error {
	runs, err := rp.tunings(d, c)
	if err != nil || len(runs) == 0 {
		return err
	}
	spec := c.spec.String()
	base := d + "_" + c.spec.dir()
	seeds := make([]string, len(runs))
	for i, r := range runs {
		seeds[i] = strconv.FormatUint(r.seed, 10)
	}
	who := fmt.Sprintf("%s: %s, seed %s", d, spec, seeds[0])
	if len(runs) > 1 {
		who = fmt.Sprintf("%s: %s, seeds %s", d, spec, strings.Join(seeds, ", "))
	}
	metric := metricLabel(runs[0].t.Metric)
	valid := "Validation curves: computed on the validation rows the method tuned lambda and delta on, not on the test rows."
	with := func(ok func(*tuning) bool) []seedTuning {
		var out []seedTuning
		for _, r := range runs {
			if ok(r.t) {
				out = append(out, r)
			}
		}
		return out
	}

	if w := with(func(t *tuning) bool { return t.staticUsed() }); len(w) > 0 {
		r, err := weightStripFigure(d+": "+spec+" static weights", w)
		caption := fmt.Sprintf("%s: the members' learned static weights w (one row per seed, one column per member as the model names it; they sum to 1 per seed). Grey: the seed's model has no such member (its mixture chose fewer components).", who)
		if err := add(d, base+"_weights", caption, r, err); err != nil {
			return err
		}
	}
	if l := with(func(t *tuning) bool { return len(t.ByLambda) > 1 }); len(l) > 0 {
		r, err := lambdaFigure(d+": "+spec+", tuning lambda", runs[0].t.Metric, l)
		caption := fmt.Sprintf("%s: validation %s against lambda, the share of the likelihood weights in w* = lambda l* + (1 - lambda) w, each lambda at its best delta; one line per seed, a circle at the chosen lambda. %s", who, metric, valid)
		if err := add(d, base+"_lambda", caption, r, err); err != nil {
			return err
		}
	}
	if dl := with(func(t *tuning) bool { return len(t.ByDelta) > 1 }); len(dl) > 0 {
		r, err := deltaFigure(d+": "+spec+", tuning delta", runs[0].t.Metric, dl)
		caption := fmt.Sprintf("%s: validation %s against the decision threshold delta at the chosen lambda; one line per seed, a circle at the chosen delta. %s", who, metric, valid)
		if err := add(d, base+"_delta", caption, r, err); err != nil {
			return err
		}
		r, err = f1FMFigure(d+": "+spec+", F1 and Fowlkes-Mallows vs delta (validation)", dl)
		caption = fmt.Sprintf("%s: validation F1 and Fowlkes-Mallows (sqrt(precision x recall), the paper's \"G-mean\") of the minority class against delta at the chosen lambda, from the validation confusion counts; a circle at the chosen delta (tuned for %s, not for these). %s", who, metric, valid)
		if err := add(d, base+"_f1_fm", caption, r, err); err != nil {
			return err
		}
	}
	return nil
}
