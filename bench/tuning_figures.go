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

	barW := vg.Points(80)
	return render(plotW+barW, h, func(c draw.Canvas) {
		p.Draw(draw.Crop(c, vg.Points(4), -barW, 0, 0))
		// The colour bar spans the strip's rows: below the title, above
		// the member names.
		x := c.Max.X - barW + vg.Points(12)
		colourBar(c, cm, hi, vg.Rectangle{
			Min: vg.Point{X: x, Y: c.Min.Y + longest + vg.Points(36)},
			Max: vg.Point{X: x + vg.Points(14), Y: c.Max.Y - vg.Points(22)},
		}, "static weight")
	})
}

// colourBar draws colour map cm from 0 (bottom) to hi (top) as a bar
// filling r, outlined, with ticks and their values to its right and the
// label, turned upright, beyond them. It is drawn as filled rectangles,
// which every SVG viewer scales (gonum's ColorBar is one raster image a
// pixel wide that browsers draw a pixel or two wide).
func colourBar(c draw.Canvas, cm plotpalette.ColorMap, hi float64, r vg.Rectangle, label string) {
	const steps = 64
	hgt := r.Max.Y - r.Min.Y
	for k := range steps {
		v := hi * (float64(k) + 0.5) / steps
		col, err := cm.At(min(max(v, cm.Min()), cm.Max()))
		if err != nil {
			continue
		}
		y0 := r.Min.Y + hgt*vg.Length(k)/steps
		y1 := min(r.Min.Y+hgt*vg.Length(k+1)/steps+vg.Points(0.3), r.Max.Y) // overlap: no hairline gaps
		c.FillPolygon(col, []vg.Point{{X: r.Min.X, Y: y0}, {X: r.Max.X, Y: y0}, {X: r.Max.X, Y: y1}, {X: r.Min.X, Y: y1}})
	}
	edge := draw.LineStyle{Color: color.Gray{110}, Width: vg.Points(0.5)}
	c.StrokeLines(edge, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min})
	st := textStyle(8, draw.XLeft, draw.YCenter)
	wide := vg.Length(0)
	for _, t := range (plot.DefaultTicks{}).Ticks(0, hi) {
		if t.Value < 0 || t.Value > hi {
			continue
		}
		y := r.Min.Y + hgt*vg.Length(t.Value/hi)
		tick := vg.Points(2)
		if !t.IsMinor() {
			tick = vg.Points(4)
			c.FillText(st, vg.Point{X: r.Max.X + vg.Points(6), Y: y}, t.Label)
			wide = max(wide, st.Width(t.Label))
		}
		c.StrokeLine2(edge, r.Max.X, y, r.Max.X+tick, y)
	}
	ls := textStyle(9, draw.XCenter, draw.YTop)
	ls.Rotation = math.Pi / 2
	c.FillText(ls, vg.Point{X: r.Max.X + vg.Points(10) + wide, Y: (r.Min.Y + r.Max.Y) / 2}, label)
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

// lambdaByAUC reports whether every run chose lambda by validation
// ROC-AUC and has that curve to draw.
func lambdaByAUC(runs []seedTuning) bool {
	for _, r := range runs {
		if r.t.Select != selectAUC || len(aucCurve(r.t)) < 2 {
			return false
		}
	}
	return len(runs) > 0
}

// aucCurve is t's validation ROC-AUC against lambda; lambdas where it
// was not computed (0 in the summary) are left out.
func aucCurve(t *tuning) plotter.XYs {
	var xy plotter.XYs
	for _, q := range t.ByLambda {
		if q.AUC > 0 && finite(q.AUC) {
			xy = append(xy, plotter.XY{X: q.Lambda, Y: q.AUC})
		}
	}
	return xy
}

// metricByLambda is t's validation metric against lambda, each at its
// best delta.
func metricByLambda(t *tuning) plotter.XYs {
	xy := make(plotter.XYs, len(t.ByLambda))
	for k, q := range t.ByLambda {
		xy[k] = plotter.XY{X: q.Lambda, Y: q.Metric}
	}
	return xy
}

// lambdaMark is the point of curve xy at t's chosen lambda (a value of
// the lambda grid, so a point of the curve); false for an empty curve.
func lambdaMark(t *tuning, xy plotter.XYs) (plotter.XY, bool) {
	k := nearest(len(xy), func(k int) float64 { return xy[k].X }, t.Lambda)
	if k < 0 {
		return plotter.XY{}, false
	}
	return xy[k], true
}

// deltaMark is the point of curve xy, whose y is f of the validation
// confusion, at t's chosen delta. A delta the Bayes rule set is no point
// of the curve's candidates: it is marked at itself, with f of the
// final model's validation confusion when the summary has it (else the
// nearest candidate's). A tuned delta is a candidate: its point.
func deltaMark(t *tuning, xy plotter.XYs, f func(metrics.Confusion) float64) (plotter.XY, bool) {
	if t.BayesDelta && t.Chosen != nil && f != nil {
		return plotter.XY{X: t.Delta, Y: f(t.Chosen.metrics())}, true
	}
	k := nearest(len(xy), func(k int) float64 { return xy[k].X }, t.Delta)
	if k < 0 {
		return plotter.XY{}, false
	}
	return xy[k], true
}

// metrics returns c as metrics counts.
func (c confusion) metrics() metrics.Confusion {
	return metrics.Confusion{TP: float64(c.TP), FP: float64(c.FP), TN: float64(c.TN), FN: float64(c.FN)}
}

// metricOf returns the function computing the named metric from a
// confusion, nil for a name metrics does not know.
func metricOf(name string) func(metrics.Confusion) float64 {
	m, err := metrics.ParseMetric(name)
	if err != nil {
		return nil
	}
	return m.Of
}

// yRange sets p's y axis to span lo..hi with a margin: tuning curves are
// often flat near their best.
func yRange(p *plot.Plot, lo, hi float64) {
	if !(lo <= hi) {
		lo, hi = 0, 1
	}
	pad := max((hi-lo)*0.1, 0.005)
	p.Y.Min, p.Y.Max = lo-pad, hi+pad
}

// lambdaPanel draws curve(t) of every run against lambda, one line per
// seed, a circle at the chosen lambda.
func lambdaPanel(title, ylabel string, runs []seedTuning, curve func(*tuning) plotter.XYs) (*plot.Plot, error) {
	p := newPlot(title, "lambda (weight of the likelihood weights)", ylabel)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, r := range runs {
		xy := curve(r.t)
		for _, q := range xy {
			lo, hi = min(lo, q.Y), max(hi, q.Y)
		}
		if err := addLine(p, xy, nil, i); err != nil {
			return nil, err
		}
		if m, ok := lambdaMark(r.t, xy); ok {
			if err := markChosen(p, m.X, m.Y, i); err != nil {
				return nil, err
			}
		}
	}
	yRange(p, lo, hi)
	return p, nil
}

// lambdaFigure draws the criterion that chose lambda against lambda, one
// line per seed, the chosen lambda circled. When the runs chose lambda by
// validation ROC-AUC it draws two panels: that ROC-AUC, which chose it,
// and beside it the validation metric at each lambda's best delta, which
// did not; otherwise the validation metric at its best delta alone.
func lambdaFigure(title, metric string, runs []seedTuning) (*rendered, error) {
	names := make([]string, len(runs))
	for i, r := range runs {
		names[i] = fmt.Sprintf("seed %d (lambda %.2f)", r.seed, r.t.Lambda)
	}
	if !lambdaByAUC(runs) {
		p, err := lambdaPanel(title, "validation "+metricLabel(metric)+" (best delta)", runs, metricByLambda)
		if err != nil {
			return nil, err
		}
		return renderWithLegend(p, names)
	}
	auc, err := lambdaPanel("", "validation ROC-AUC (chose lambda)", runs, aucCurve)
	if err != nil {
		return nil, err
	}
	m, err := lambdaPanel("", "validation "+metricLabel(metric)+" (best delta; did not choose)", runs, metricByLambda)
	if err != nil {
		return nil, err
	}
	return panelsFigure(title, []*plot.Plot{auc, m}, names)
}

// deltaFigure draws the validation metric against delta at the chosen
// lambda, one line per seed, the chosen delta circled (where the Bayes
// rule chose it, at the final model's validation metric).
func deltaFigure(title, metric string, runs []seedTuning) (*rendered, error) {
	p := newPlot(title, "delta (decision threshold on the score)", "validation "+metricLabel(metric))
	f := metricOf(metric)
	var names []string
	for i, r := range runs {
		xy := make(plotter.XYs, len(r.t.ByDelta))
		for k, q := range r.t.ByDelta {
			xy[k] = plotter.XY{X: q.Delta, Y: q.Metric}
		}
		if err := addLine(p, xy, nil, i); err != nil {
			return nil, err
		}
		if m, ok := deltaMark(r.t, xy, f); ok {
			if err := markChosen(p, m.X, m.Y, i); err != nil {
				return nil, err
			}
		}
		names = append(names, fmt.Sprintf("seed %d (delta %.2f%s)", r.seed, r.t.Delta, bayesTag(runs, r.t)))
	}
	return renderWithLegend(p, names)
}

// bayesTag is ", Bayes rule" or ", tuned" for a legend entry when the
// runs' deltas were chosen by different rules, else "".
func bayesTag(runs []seedTuning, t *tuning) string {
	bayes := 0
	for _, r := range runs {
		if r.t.BayesDelta {
			bayes++
		}
	}
	switch {
	case bayes == 0 || bayes == len(runs):
		return ""
	case t.BayesDelta:
		return ", Bayes rule"
	}
	return ", tuned"
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
				xy[k] = plotter.XY{X: q.Delta, Y: pn.f(q.Confusion.metrics())}
			}
			if err := addLine(p, xy, nil, i); err != nil {
				return nil, err
			}
			if m, ok := deltaMark(r.t, xy, pn.f); ok {
				if err := markChosen(p, m.X, m.Y, i); err != nil {
					return nil, err
				}
			}
		}
		plots[j] = p
	}
	names := make([]string, len(runs))
	for i, r := range runs {
		names[i] = fmt.Sprintf("seed %d (delta %.2f%s)", r.seed, r.t.Delta, bayesTag(runs, r.t))
	}
	return panelsFigure(title, plots, names)
}

// panelsFigure draws plots side by side under one title, with one legend
// of names on the right.
func panelsFigure(title string, plots []*plot.Plot, names []string) (*rendered, error) {
	l := legend(names)
	legendW := legendWidth(l, names)
	panelW := 4 * vg.Inch
	// 24 points for a title of one line, and a line's height more for
	// each further line.
	st := textStyle(11, draw.XCenter, draw.YTop)
	titleH := vg.Points(24) + st.Height(title) - st.Height("x")
	return render(vg.Length(len(plots))*panelW+legendW, plotHeight, func(c draw.Canvas) {
		c.FillText(st, vg.Point{X: c.Min.X + vg.Length(len(plots))*panelW/2, Y: c.Max.Y - vg.Points(6)}, title)
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
		short, rule := lambdaRule(l, metric)
		r, err := lambdaFigure(d+": "+spec+", tuning lambda"+short, runs[0].t.Metric, l)
		drawn := fmt.Sprintf("validation %s against lambda, the share of the likelihood weights in w* = lambda l* + (1 - lambda) w, each lambda at its best delta", metric)
		if lambdaByAUC(l) {
			drawn = fmt.Sprintf("left, validation ROC-AUC against lambda, the share of the likelihood weights in w* = lambda l* + (1 - lambda) w; right, validation %s against lambda, each lambda at its best delta", metric)
		}
		caption := fmt.Sprintf("%s: %s; one line per seed, a circle at the chosen lambda. %s %s", who, drawn, rule, valid)
		if err := add(d, base+"_lambda", caption, r, err); err != nil {
			return err
		}
	}
	if dl := with(func(t *tuning) bool { return len(t.ByDelta) > 1 }); len(dl) > 0 {
		short, rule := deltaRule(dl, metric)
		r, err := deltaFigure(d+": "+spec+", tuning delta"+short, runs[0].t.Metric, dl)
		caption := fmt.Sprintf("%s: validation %s against the decision threshold delta at the chosen lambda; one line per seed, a circle at the chosen delta. %s %s", who, metric, rule, valid)
		if err := add(d, base+"_delta", caption, r, err); err != nil {
			return err
		}
		r, err = f1FMFigure(d+": "+spec+", F1 and Fowlkes-Mallows vs delta (validation)", dl)
		caption = fmt.Sprintf("%s: validation F1 and Fowlkes-Mallows (sqrt(precision x recall), the paper's \"G-mean\") of the minority class against delta at the chosen lambda, from the validation confusion counts; a circle at the chosen delta (chosen for %s, not for these: %s). %s", who, metric, deltaHow(dl, metric), valid)
		if err := add(d, base+"_f1_fm", caption, r, err); err != nil {
			return err
		}
	}
	return nil
}

// seedList writes the seeds of runs as "seed 0" or "seeds 0, 1".
func seedList(runs []seedTuning) string {
	s := make([]string, len(runs))
	for i, r := range runs {
		s[i] = strconv.FormatUint(r.seed, 10)
	}
	if len(s) == 1 {
		return "seed " + s[0]
	}
	return "seeds " + strings.Join(s, ", ")
}

// lambdaRule says what chose the runs' lambda: a short form for a
// figure's title (a second line "chosen by ...", "" when unknown) and a
// sentence for its caption.
func lambdaRule(runs []seedTuning, metric string) (short, sentence string) {
	by := map[string][]seedTuning{}
	for _, r := range runs {
		by[r.t.Select] = append(by[r.t.Select], r)
	}
	switch {
	case len(by[selectAUC]) == len(runs) && lambdaByAUC(runs):
		return "\nchosen by validation ROC-AUC", fmt.Sprintf("Lambda (with the likelihood rule) was chosen by the validation ROC-AUC (select=auc): the circle is the highest point of the left panel, not of the right one, whose %s at each lambda's best delta did not choose it.", metric)
	case len(by[selectThreshold]) == len(runs):
		return "\nchosen by validation " + metric, fmt.Sprintf("Lambda (with the likelihood rule) was chosen by the validation %s at its best delta (select=threshold): the circle is the curve's highest point (of tied ones, the middle).", metric)
	case len(by[""]) == len(runs):
		return "", "The fit summaries do not record what chose lambda."
	}
	var parts []string
	for _, k := range []string{selectAUC, selectThreshold, ""} {
		if len(by[k]) == 0 {
			continue
		}
		what := map[string]string{selectAUC: "validation ROC-AUC", selectThreshold: "validation " + metric + " at its best delta", "": "a rule the summary does not record"}[k]
		parts = append(parts, fmt.Sprintf("by %s for %s", what, seedList(by[k])))
	}
	return "", "Lambda was chosen " + strings.Join(parts, ", ") + "; the curve drawn is the validation " + metric + " at each lambda's best delta."
}

// deltaRule says what chose the runs' delta: a short form for a figure's
// title (as lambdaRule's) and a sentence for its caption.
func deltaRule(runs []seedTuning, metric string) (short, sentence string) {
	const bayes = "the Bayes rule of a sigmoid calibration of the validation scores (delta_rule=bayes: the threshold where the calibrated probability equals the training rows' positive share)"
	var b, tuned, fell, unknown []seedTuning
	for _, r := range runs {
		switch {
		case r.t.BayesDelta:
			b = append(b, r)
		case r.t.DeltaRule == deltaBayes:
			fell = append(fell, r)
		case r.t.DeltaRule == deltaTuned:
			tuned = append(tuned, r)
		default:
			unknown = append(unknown, r)
		}
	}
	switch {
	case len(b) == len(runs):
		return "\nchosen by the Bayes rule", fmt.Sprintf("Delta was chosen by %s, not as the best point of this curve: the circle marks that delta and the final model's validation %s there, and need not sit at the curve's peak.", bayes, metric)
	case len(tuned) == len(runs):
		return "\nchosen by validation " + metric, "Delta was chosen as the best point of this curve (delta_rule=tuned; of tied best thresholds, the middle one)."
	case len(unknown) == len(runs):
		return "", "The fit summaries do not record what chose delta."
	}
	var parts []string
	if len(b) > 0 {
		parts = append(parts, fmt.Sprintf("by %s for %s", bayes, seedList(b)))
	}
	if len(fell) > 0 {
		parts = append(parts, fmt.Sprintf("as the curve's best point for %s, where the Bayes rule was asked for but the calibration could not give it", seedList(fell)))
	}
	if len(tuned) > 0 {
		parts = append(parts, fmt.Sprintf("as the curve's best point (delta_rule=tuned) for %s", seedList(tuned)))
	}
	if len(unknown) > 0 {
		parts = append(parts, fmt.Sprintf("by a rule the summary does not record for %s", seedList(unknown)))
	}
	return "", "Delta was chosen " + strings.Join(parts, "; ") + "."
}

// deltaHow is deltaRule's choice in a few words: "by the Bayes rule ...",
// "as the best point of its validation METRIC curve", or a pointer to the
// delta figure when the runs differ.
func deltaHow(runs []seedTuning, metric string) string {
	bayes, tuned := 0, 0
	for _, r := range runs {
		switch {
		case r.t.BayesDelta:
			bayes++
		case r.t.DeltaRule == deltaTuned || r.t.DeltaRule == deltaBayes:
			tuned++
		}
	}
	switch {
	case bayes == len(runs):
		return "by the Bayes rule of a sigmoid calibration of the validation scores, the circle at F1 and Fowlkes-Mallows of the final model's validation predictions there"
	case tuned == len(runs):
		return "as the best point of its validation " + metric + " curve"
	}
	return "the delta figure's caption says how"
}
