package bench

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/aer-go/aer/internal/atomicfile"
	"github.com/aer-go/aer/metrics"
)

// FiguresDir holds the report's figures under the output directory.
const FiguresDir = "figures"

// curve is one method's pooled test predictions, for the figures.
type curve struct {
	name string
	y    []int
	s    []float64
}

// palette is Tableau's ten colours; with two dash patterns, twenty methods
// get distinct lines.
var palette = []color.RGBA{
	{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255}, {148, 103, 189, 255},
	{140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255}, {188, 189, 34, 255}, {23, 190, 207, 255},
}

func lineStyle(i int) draw.LineStyle {
	s := draw.LineStyle{Color: palette[i%len(palette)], Width: vg.Points(1.5)}
	if (i/len(palette))%2 == 1 {
		s.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return s
}

func textStyle(size vg.Length, xa text.XAlignment, ya text.YAlignment) draw.TextStyle {
	return draw.TextStyle{Color: color.Black, Font: font.From(plot.DefaultFont, size), XAlign: xa, YAlign: ya, Handler: plot.DefaultTextHandler}
}

// rendered is a figure in both formats.
type rendered struct{ svg, png []byte }

// render draws a figure of width w and height h as SVG and PNG (150 dpi).
func render(w, h vg.Length, draw1 func(draw.Canvas)) (*rendered, error) {
	var r rendered
	sc := vgsvg.New(w, h)
	draw1(draw.New(sc))
	var b bytes.Buffer
	if _, err := sc.WriteTo(&b); err != nil {
		return nil, err
	}
	// vgsvg embeds raster images (the heat maps' cells) as PNG data but
	// labels them image/jpg; say what they are.
	r.svg = bytes.ReplaceAll(b.Bytes(), []byte("data:image/jpg;base64,iVBOR"), []byte("data:image/png;base64,iVBOR"))
	ic := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(150), vgimg.UseBackgroundColor(color.White))
	draw1(draw.New(ic))
	var p bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: ic}).WriteTo(&p); err != nil {
		return nil, err
	}
	r.png = p.Bytes()
	return &r, nil
}

// plotSize is the size of a curve plot; its legend goes to the right.
const (
	plotWidth  = 5 * vg.Inch
	plotHeight = 4.5 * vg.Inch
)

// newLegend is an empty legend in the style of every figure's, for the
// right of a plot.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.Top, l.Left = true, true
	l.TextStyle.Font.Size = vg.Points(9)
	l.ThumbnailWidth = vg.Points(20)
	l.Padding = vg.Points(5)
	l.YOffs = -vg.Points(12)
	return l
}

// legend is a legend of the named line styles, for the right of a plot.
func legend(names []string) plot.Legend {
	l := newLegend()
	for i, n := range names {
		l.Add(n, &plotter.Line{LineStyle: lineStyle(i)})
	}
	return l
}

// legendWidth is the room legend l of names needs.
func legendWidth(l plot.Legend, names []string) vg.Length {
	wide := vg.Length(0)
	for _, n := range names {
		wide = max(wide, l.TextStyle.Width(n))
	}
	return wide + l.ThumbnailWidth + vg.Points(24)
}

// renderWithLegend draws p and, right of it, a legend of the named line
// styles, on a canvas wide enough for the longest name.
func renderWithLegend(p *plot.Plot, names []string) (*rendered, error) {
	items := make([]legendItem, len(names))
	for i, n := range names {
		items[i] = legendItem{n, lineStyle(i)}
	}
	return renderCurves(p, items, nil)
}

// legendItem is a legend's entry: a name and its line.
type legendItem struct {
	name  string
	style draw.LineStyle
}

// renderCurves draws p and, right of it, a legend of items and below it,
// in smaller grey type under "other methods (grey):", the names of the
// curves drawn grey.
func renderCurves(p *plot.Plot, items []legendItem, grey []string) (*rendered, error) {
	l := newLegend()
	names := make([]string, len(items))
	for i, it := range items {
		l.Add(it.name, &plotter.Line{LineStyle: it.style})
		names[i] = it.name
	}
	lw := legendWidth(l, names)
	var g plot.Legend
	if len(grey) > 0 {
		g = plot.NewLegend()
		g.Top, g.Left = true, true
		g.TextStyle.Font.Size = vg.Points(7.5)
		g.TextStyle.Color = color.Gray{90}
		g.ThumbnailWidth = l.ThumbnailWidth
		g.Padding = vg.Points(3)
		g.Add("other methods (grey):")
		for _, n := range grey {
			g.Add(n, &plotter.Line{LineStyle: greyLine})
		}
		lw = max(lw, legendWidth(g, append([]string{"other methods (grey):"}, grey...)))
	}
	return render(plotWidth+lw, plotHeight, func(c draw.Canvas) {
		p.Draw(draw.Crop(c, 0, -lw, 0, 0))
		lc := draw.Crop(c, plotWidth+vg.Points(6), 0, 0, 0)
		l.Draw(lc)
		if len(grey) > 0 {
			r := l.Rectangle(lc)
			g.YOffs = l.YOffs - (r.Max.Y - r.Min.Y) - vg.Points(8)
			g.Draw(lc)
		}
	})
}

// maxColoured is the most curves a figure of methods draws each in its
// own colour: with more, only the highlighted methods are coloured
// (highlight) and the others drawn thin and grey beneath them.
const maxColoured = 6

// greyLine is the style of a method a crowded figure does not highlight.
var greyLine = draw.LineStyle{Color: color.Gray{190}, Width: vg.Points(0.7)}

// curveStyle is curve i's line under the colours hl (see highlight): its
// palette colour, or grey (false) when hl[i] is negative; with hl nil,
// colour i.
func curveStyle(hl []int, i int) (draw.LineStyle, bool) {
	if hl == nil {
		return lineStyle(i), true
	}
	if hl[i] < 0 {
		return greyLine, false
	}
	s := lineStyle(hl[i])
	s.Width = vg.Points(1.8)
	return s, true
}

// curveOrder is the order in which a figure draws its n curves: grey
// ones first, so the coloured ones lie on top.
func curveOrder(hl []int, n int) []int {
	var grey, col []int
	for i := range n {
		if hl != nil && hl[i] < 0 {
			grey = append(grey, i)
		} else {
			col = append(col, i)
		}
	}
	return append(grey, col...)
}

// curveLegend splits the legend names of the curves into the coloured
// ones' entries, in order of colour (the ranking's order), and the grey
// ones' names.
func curveLegend(hl []int, names []string) ([]legendItem, []string) {
	var items []legendItem
	var grey []string
	var col []int
	for i, n := range names {
		if _, ok := curveStyle(hl, i); ok {
			col = append(col, i)
		} else {
			grey = append(grey, n)
		}
	}
	sort.SliceStable(col, func(a, b int) bool { return hl != nil && hl[col[a]] < hl[col[b]] })
	for _, i := range col {
		st, _ := curveStyle(hl, i)
		items = append(items, legendItem{names[i], st})
	}
	return items, grey
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.Text, p.Y.Label.Text = x, y
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	p.Add(plotter.NewGrid())
	return p
}

// diagonal is a thin grey reference line from (0,0) to (1,1).
func diagonal() *plotter.Line {
	return &plotter.Line{XYs: plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}}, LineStyle: draw.LineStyle{Color: color.Gray{160}, Width: vg.Points(0.75), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}}}
}

// rocFigure draws the ROC curves (false positive rate, true positive rate)
// of the methods' scores, coloured as hl says (see curveStyle).
func rocFigure(title string, cs []curve, hl []int) (*rendered, error) {
	p := newPlot(title, "false positive rate (1 - majority recall)", "true positive rate (minority recall)")
	p.Add(diagonal())
	names := make([]string, len(cs))
	for _, i := range curveOrder(hl, len(cs)) {
		c := cs[i]
		sw := metrics.SweepScores(c.y, c.s, nil)
		xy := make(plotter.XYs, 0, len(sw)+2)
		xy = append(xy, plotter.XY{X: 1, Y: 1})
		for k := range sw {
			cf := sw[k].Confusion
			xy = append(xy, plotter.XY{X: ratio(cf.FP, cf.FP+cf.TN), Y: ratio(cf.TP, cf.TP+cf.FN)})
		}
		xy = append(xy, plotter.XY{X: 0, Y: 0})
		if err := addLine(p, xy, hl, i); err != nil {
			return nil, err
		}
		names[i] = fmt.Sprintf("%s (AUC %.3f)", c.name, metrics.ROCAUC(c.y, c.s, nil))
	}
	items, grey := curveLegend(hl, names)
	return renderCurves(p, items, grey)
}

// prFigure draws the precision-recall curves of the methods' scores, with
// the minority share (a random scorer's precision) as reference.
func prFigure(title string, cs []curve, hl []int) (*rendered, error) {
	p := newPlot(title, "recall (minority)", "precision (minority)")
	names := make([]string, len(cs))
	for _, i := range curveOrder(hl, len(cs)) {
		c := cs[i]
		sw := metrics.SweepScores(c.y, c.s, nil)
		xy := make(plotter.XYs, 0, len(sw))
		for k := range sw {
			cf := sw[k].Confusion
			if cf.TP+cf.FP == 0 {
				continue
			}
			xy = append(xy, plotter.XY{X: ratio(cf.TP, cf.TP+cf.FN), Y: cf.TP / (cf.TP + cf.FP)})
		}
		if err := addLine(p, xy, hl, i); err != nil {
			return nil, err
		}
		names[i] = fmt.Sprintf("%s (AP %.3f)", c.name, metrics.AveragePrecision(c.y, c.s, nil))
	}
	if len(cs) > 0 {
		pos := 0
		for _, v := range cs[0].y {
			pos += v
		}
		share := float64(pos) / float64(len(cs[0].y))
		base := &plotter.Line{XYs: plotter.XYs{{X: 0, Y: share}, {X: 1, Y: share}}, LineStyle: diagonal().LineStyle}
		p.Add(base)
	}
	items, grey := curveLegend(hl, names)
	return renderCurves(p, items, grey)
}

// reliabilityFigure draws each method's reliability curve: the share of
// positives against the mean score in ten equal-width score bins. Methods
// whose scores are not probabilities are left out.
func reliabilityFigure(title string, cs []curve, hl []int) (*rendered, error) {
	p := newPlot(title, "mean score in the bin", "share of minority rows in the bin")
	p.Add(diagonal())
	names := make([]string, len(cs))
	for _, i := range curveOrder(hl, len(cs)) {
		c := cs[i]
		cal, ok := metrics.EvaluateCalibration(c.y, c.s, nil, 10)
		if !ok {
			// Not probabilities: listed, so colours match the other figures.
			names[i] = c.name + " (not probabilities)"
			continue
		}
		xy := make(plotter.XYs, len(cal.Bins))
		for k, b := range cal.Bins {
			xy[k] = plotter.XY{X: b.MeanScore, Y: b.Positive}
		}
		if err := addLine(p, xy, hl, i); err != nil {
			return nil, err
		}
		names[i] = fmt.Sprintf("%s (Brier %.3f)", c.name, cal.Brier)
		st, coloured := curveStyle(hl, i)
		if !coloured {
			continue
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color, sc.GlyphStyle.Radius, sc.GlyphStyle.Shape = st.Color, vg.Points(2), draw.CircleGlyph{}
		p.Add(sc)
	}
	items, grey := curveLegend(hl, names)
	return renderCurves(p, items, grey)
}

// addLine adds curve i's line in its style under hl (see curveStyle).
func addLine(p *plot.Plot, xy plotter.XYs, hl []int, i int) error {
	if len(xy) == 0 {
		return nil
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	l.LineStyle, _ = curveStyle(hl, i)
	p.Add(l)
	return nil
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// cdFigure draws Demsar's critical-difference diagram: the methods on an
// axis of mean rank (1, the best, on the left), the critical difference as
// a bar, and thick lines joining groups of methods whose mean ranks differ
// by less than it.
func cdFigure(names []string, ranks []float64, cd float64, datasets int) (*rendered, error) {
	k := len(names)
	if k < 2 || len(ranks) != k {
		return nil, fmt.Errorf("critical-difference diagram of %d methods and %d ranks", k, len(ranks))
	}
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return ranks[order[a]] < ranks[order[b]] })
	left := (k + 1) / 2
	rowH := vg.Points(16)
	w := 7 * vg.Inch
	h := vg.Points(95) + vg.Length(left)*rowH
	return render(w, h, func(c draw.Canvas) {
		c.SetColor(color.White)
		x0, x1 := c.Min.X+2.1*vg.Inch, c.Max.X-2.1*vg.Inch
		top := c.Max.Y - vg.Points(50)
		xOf := func(r float64) vg.Length { return x0 + (x1-x0)*vg.Length((r-1)/float64(max(k-1, 1))) }
		thin := draw.LineStyle{Color: color.Black, Width: vg.Points(1)}
		thick := draw.LineStyle{Color: color.Black, Width: vg.Points(3.5)}
		small, label := textStyle(9, draw.XCenter, draw.YBottom), textStyle(10, draw.XCenter, draw.YBottom)

		c.FillText(label, vg.Point{X: (x0 + x1) / 2, Y: c.Max.Y - vg.Points(14)},
			fmt.Sprintf("mean rank over %d datasets (Nemenyi critical difference, alpha 0.05)", datasets))
		// The axis, its ticks and rank numbers.
		c.StrokeLine2(thin, x0, top, x1, top)
		for r := 1; r <= k; r++ {
			x := xOf(float64(r))
			c.StrokeLine2(thin, x, top, x, top+vg.Points(4))
			c.FillText(small, vg.Point{X: x, Y: top + vg.Points(6)}, fmt.Sprint(r))
		}
		// The critical difference above the axis, from rank 1.
		if cd > 0 && !math.IsInf(cd, 0) {
			y := top + vg.Points(24)
			xe := min(xOf(1+cd), xOf(float64(k)))
			c.StrokeLine2(thin, xOf(1), y, xe, y)
			c.StrokeLine2(thin, xOf(1), y-vg.Points(3), xOf(1), y+vg.Points(3))
			c.StrokeLine2(thin, xe, y-vg.Points(3), xe, y+vg.Points(3))
			c.FillText(textStyle(9, draw.XLeft, draw.YCenter), vg.Point{X: xe + vg.Points(4), Y: y}, fmt.Sprintf("CD = %.2f", cd))
		}
		// The methods: the better half to the left, the rest to the right.
		for pos, j := range order {
			x := xOf(ranks[j])
			var y vg.Length
			var tx vg.Length
			var st draw.TextStyle
			if pos < left {
				y = top - vg.Length(pos+1)*rowH - vg.Points(14)
				tx = x0 - vg.Points(10)
				st = textStyle(9, draw.XRight, draw.YCenter)
			} else {
				y = top - vg.Length(k-pos)*rowH - vg.Points(14)
				tx = x1 + vg.Points(10)
				st = textStyle(9, draw.XLeft, draw.YCenter)
			}
			c.StrokeLine2(thin, x, top, x, y)
			c.StrokeLine2(thin, x, y, tx, y)
			c.FillText(st, vg.Point{X: tx + map[bool]vg.Length{true: -vg.Points(3), false: vg.Points(3)}[pos < left], Y: y},
				fmt.Sprintf("%s (%.2f)", names[j], ranks[j]))
		}
		// Groups not significantly different: maximal runs of the sorted
		// methods spanning less than CD.
		var groups [][2]int
		for a := 0; a < k; a++ {
			b := a
			for b+1 < k && ranks[order[b+1]]-ranks[order[a]] < cd {
				b++
			}
			if b > a && (len(groups) == 0 || b > groups[len(groups)-1][1]) {
				groups = append(groups, [2]int{a, b})
			}
		}
		for g, ab := range groups {
			y := top - vg.Points(5) - vg.Length(g)*vg.Points(5)
			c.StrokeLine2(thick, xOf(ranks[order[ab[0]]])-vg.Points(2), y, xOf(ranks[order[ab[1]]])+vg.Points(2), y)
		}
	})
}

// highlightTop is how many of the best-ranked methods a crowded figure
// colours, besides the reference and the paper's AER.
const highlightTop = 4

// highlight chooses the colours of a figure's curves cs when there are
// more than maxColoured: the highlightTop best by the ranking across
// datasets (by mean balanced accuracy over the datasets when there is no
// ranking), the reference and the paper's AER get colours, in that order
// of rank; the others -1, grey. It returns nil (every curve its own
// colour) for few curves, and the caption's sentence saying so.
func (rp *report) highlight(cs []curve) ([]int, string) {
	if len(cs) <= maxColoured {
		return nil, ""
	}
	var order []string
	if r := rp.ranking(); len(r.Methods) > 0 {
		for _, m := range r.Methods {
			order = append(order, m.Method)
		}
	} else {
		ba := map[string]float64{}
		for _, s := range rp.cfg.Methods {
			var v []float64
			for _, d := range rp.ds {
				for _, c := range rp.cells[d.name] {
					if c.spec.String() == s.String() && len(c.rows) > 0 {
						v = append(v, mean(c.values(func(r *Row) float64 { return r.BalancedAccuracy })))
					}
				}
			}
			order = append(order, s.String())
			ba[s.String()] = mean(v)
			if len(v) == 0 {
				ba[s.String()] = math.Inf(-1)
			}
		}
		sort.SliceStable(order, func(a, b int) bool { return ba[order[a]] > ba[order[b]] })
	}
	pick := map[string]bool{rp.ref.String(): true, PaperPreset.String(): true}
	for _, m := range order[:min(highlightTop, len(order))] {
		pick[m] = true
	}
	colour := map[string]int{}
	var named []string
	for _, m := range order {
		if pick[m] {
			colour[m] = len(colour)
			named = append(named, m)
		}
	}
	hl := make([]int, len(cs))
	var shown []string
	for i, c := range cs {
		hl[i] = -1
		if k, ok := colour[c.name]; ok {
			hl[i] = k
		}
	}
	for _, m := range named {
		for _, c := range cs {
			if c.name == m {
				shown = append(shown, m)
			}
		}
	}
	return hl, fmt.Sprintf(" Of the %d methods, the %d best ranked, the reference and the paper's AER are coloured (%s); the others are thin grey lines.",
		len(cs), highlightTop, strings.Join(shown, ", "))
}

// writeFigure saves a figure as dir/name.svg and dir/name.png and returns
// the report's entry for it.
func writeFigure(out, name, caption string, r *rendered) (figure, error) {
	f := figure{svg: filepath.Join(FiguresDir, name+".svg"), png: filepath.Join(FiguresDir, name+".png"), caption: caption}
	for _, x := range []struct {
		path string
		b    []byte
	}{{f.svg, r.svg}, {f.png, r.png}} {
		if err := atomicfile.Write(filepath.Join(out, x.path), func(w io.Writer) error { _, err := w.Write(x.b); return err }); err != nil {
			return figure{}, err
		}
	}
	return f, nil
}

// writeFigures draws the report's figures under the output directory and
// returns their paths relative to it: per dataset the ROC, precision-recall
// and reliability curves of every method (test predictions of all its
// seeds pooled) and the paper's figures of each method whose fit summary
// has them (AER's weights and tuning curves), and across datasets the
// critical-difference diagram.
func (rp *report) writeFigures() ([]string, error) {
	if err := os.MkdirAll(filepath.Join(rp.cfg.Out, FiguresDir), 0o755); err != nil {
		return nil, err
	}
	var files []string
	add := func(key, name, caption string, r *rendered, err error) error {
		if err != nil {
			return fmt.Errorf("figure %s: %w", name, err)
		}
		f, err := writeFigure(rp.cfg.Out, name, caption, r)
		if err != nil {
			return err
		}
		rp.figures[key] = append(rp.figures[key], f)
		files = append(files, f.svg, f.png)
		return nil
	}
	for _, d := range rp.ds {
		if d.d.NumClasses() > 2 {
			continue // the curves are of binary scores
		}
		var cs []curve
		for _, c := range rp.cells[d.name] {
			if len(c.rows) == 0 {
				continue
			}
			seeds := make([]uint64, len(c.rows))
			for i, r := range c.rows {
				seeds[i] = r.Seed
			}
			p, err := pooledPreds(rp.cfg.Out, d.name, c.spec, seeds)
			if err != nil {
				return nil, err
			}
			cs = append(cs, curve{name: c.spec.String(), y: p.Label, s: p.Score})
		}
		if len(cs) == 0 {
			continue
		}
		pooled := "test predictions of all seeds pooled"
		hl, hlText := rp.highlight(cs)
		r, err := rocFigure(d.name+": ROC curves ("+pooled+")", cs, hl)
		if err := add(d.name, d.name+"_roc", d.name+": ROC curves, "+pooled+"; ROC-AUC of the pooled scores in the legend."+hlText, r, err); err != nil {
			return nil, err
		}
		r, err = prFigure(d.name+": precision-recall curves ("+pooled+")", cs, hl)
		if err := add(d.name, d.name+"_pr", d.name+": precision-recall curves, "+pooled+"; the dashed line is the minority share (a random scorer)."+hlText, r, err); err != nil {
			return nil, err
		}
		r, err = reliabilityFigure(d.name+": reliability ("+pooled+")", cs, hl)
		if err := add(d.name, d.name+"_reliability", d.name+": reliability diagram, ten equal-width score bins, "+pooled+"; the diagonal is perfect calibration."+hlText, r, err); err != nil {
			return nil, err
		}
		for _, c := range rp.cells[d.name] {
			if err := rp.tuningFigures(d.name, c, add); err != nil {
				return nil, err
			}
		}
	}
	if fr, nm := rp.friedman, rp.nemenyi; fr != nil && nm != nil {
		names := make([]string, len(rp.cfg.Methods))
		for i, s := range rp.cfg.Methods {
			names[i] = s.String()
		}
		r, err := cdFigure(names, fr.MeanRanks, nm.CD, fr.N)
		caption := fmt.Sprintf("Critical-difference diagram: mean ranks of balanced accuracy over %d datasets; methods joined by a thick line do not differ significantly (Nemenyi, alpha %g, CD %.3f).", fr.N, nm.Alpha, nm.CD)
		if c := fewText(fr.N); c != "" {
			caption += " Caveat: " + c
		}
		if err := add("", "critical_difference", caption, r, err); err != nil {
			return nil, err
		}
	}
	return files, nil
}
