package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aer-go/aer/bench"
)

// benchReport runs cfg and returns its report.md and report.html.
func benchReport(t *testing.T, cfg bench.Config) (md, html string) {
	t.Helper()
	if _, err := bench.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	m, err := os.ReadFile(filepath.Join(cfg.Out, bench.ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	h, err := os.ReadFile(filepath.Join(cfg.Out, bench.ReportHTML))
	if err != nil {
		t.Fatal(err)
	}
	return string(m), string(h)
}

// inOrder reports whether the strings occur in s in the given order.
func inOrder(s string, parts ...string) bool {
	at := 0
	for _, p := range parts {
		i := strings.Index(s[at:], p)
		if i < 0 {
			return false
		}
		at += i + len(p)
	}
	return true
}

// TestReportRankingFirst: report.html and report.md open with the
// ranking across datasets and its tests (Friedman, Nemenyi, the Wilcoxon
// tally), before the setup and the datasets' sections; on 2 datasets
// they say the tests mean little.
func TestReportRankingFirst(t *testing.T) {
	md, html := benchReport(t, tinyBench(t, t.TempDir()))
	if !inOrder(html, `<h1 id="aer-bench">`, `<nav>`, `<h2 id="ranking-across-datasets">`, `<p class="caveat">`,
		`<table id="ranking"`, "Friedman&#39;s test: chi2 =", "Nemenyi post-hoc test", "<figure id=\"critical_difference\">",
		`<h2 id="setup-and-methods">`, `<h2 id="alpha">`, `<h2 id="beta">`) {
		t.Error("report.html: the ranking, its tests and the critical-difference diagram do not come first, before the setup and the datasets")
	}
	if !inOrder(md, "# aer bench", "## Ranking across datasets", "> **Caveat:** on 2 datasets: too few for Friedman's and Nemenyi's tests to mean much",
		"| method | mean rank | mean balanced accuracy | Wilcoxon vs gbdt:n_estimators=20: better / n.s. / worse |",
		"Friedman's test: chi2 =", "## Setup and methods", "## alpha", "## beta") {
		t.Errorf("report.md: the ranking does not come first:\n%s", md[:min(len(md), 2000)])
	}
	// The reference's row says so; another's counts 2 datasets.
	if !strings.Contains(md, "| reference |") {
		t.Error("report.md's ranking does not mark the reference")
	}
	tally := ""
	for _, line := range strings.Split(md, "\n") {
		if cells := strings.Split(line, " | "); strings.HasPrefix(line, "| logreg | ") && len(cells) == 4 {
			tally = strings.TrimSuffix(cells[3], " |")
		}
	}
	var b, s, w int
	if _, err := fmt.Sscanf(tally, "%d / %d / %d", &b, &s, &w); err != nil || b+s+w != 2 {
		t.Errorf("logreg's Wilcoxon tally %q: want counts of 2 datasets", tally)
	}
	// A number's spread is set apart and never wrapped.
	if !strings.Contains(html, `<td class="num">0.`) || !strings.Contains(html, `<span class="sd"> ±0.`) || !strings.Contains(html, "white-space:nowrap") {
		t.Error("report.html: numbers are not marked unwrappable")
	}
}

// TestReportCaveat: the caveat on the tests is there below
// bench.FewDatasets datasets and not at it.
func TestReportCaveat(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		writeTask(t, dir, fmt.Sprintf("task%d", i), uint64(10+i))
	}
	files, err := bench.ExpandDatasets([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	specs, err := bench.ParseSpecs("logreg,tree:max_depth=3")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{bench.FewDatasets - 1, 6} {
		cfg := bench.Config{Datasets: files[:n], Seeds: []uint64{0}, Methods: specs, Out: t.TempDir()}
		md, html := benchReport(t, cfg)
		caveat := fmt.Sprintf("on %d datasets: too few", n)
		few := n < bench.FewDatasets
		if strings.Contains(md, caveat) != few || strings.Contains(html, `<p class="caveat">`) != few || strings.Contains(md, "> **Caveat:**") != few {
			t.Errorf("%d datasets: caveat shown %v, want %v", n, strings.Contains(md, caveat), few)
		}
		if !strings.Contains(md, "Friedman's test: chi2 =") {
			t.Errorf("%d datasets: no Friedman's test", n)
		}
	}
}

// chromium returns the path of a Chromium binary, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	t.Skip("no chromium (/usr/bin/chromium): report.html's layout in a browser is not checked (apt-get install chromium)")
	return ""
}

// layoutProbe measures the page once it has loaded and writes the
// measurements as JSON into a <pre id="aer-layout"> for --dump-dom.
const layoutProbe = `<script>
addEventListener('load', () => {
  const vw = document.documentElement.clientWidth, top = e => e.getBoundingClientRect().top + scrollY;
  const r = {viewportWidth: vw, viewportHeight: innerHeight, pageWidth: document.documentElement.scrollWidth,
    rankingTop: -1, friedmanBottom: -1, nemenyiBottom: -1, firstDataset: -1, numbers: 0, wrapped: [], wide: []};
  const rank = document.getElementById('ranking');
  if (rank) r.rankingTop = top(rank);
  for (const p of document.querySelectorAll('p')) {
    const b = p.getBoundingClientRect().bottom + scrollY;
    if (p.textContent.startsWith("Friedman's test") && r.friedmanBottom < 0) r.friedmanBottom = b;
    if (p.textContent.startsWith('Nemenyi') && r.nemenyiBottom < 0) r.nemenyiBottom = b;
  }
  const ds = document.getElementById('alpha');
  if (ds) r.firstDataset = top(ds);
  for (const td of document.querySelectorAll('td')) {
    const t = td.textContent.trim();
    if (!/^[-+]?([0-9]|n\/a|inf)/.test(t)) continue;
    r.numbers++;
    const range = document.createRange();
    range.selectNodeContents(td);
    const lh = parseFloat(getComputedStyle(td).fontSize);
    const tops = [...range.getClientRects()].map(q => q.top);
    if (Math.max(...tops) - Math.min(...tops) > 0.6 * lh) r.wrapped.push(t);
  }
  for (const tb of document.querySelectorAll('table')) {
    const right = tb.getBoundingClientRect().right;
    if (right <= vw + 0.5) continue;
    const box = tb.parentElement, cs = getComputedStyle(box);
    if (/auto|scroll/.test(cs.overflowX) && box.getBoundingClientRect().right <= vw + 0.5) continue;
    r.wide.push(tb.rows[0].cells[0].textContent + ': right edge ' + right);
  }
  for (const f of document.querySelectorAll('figure svg')) {
    if (f.getBoundingClientRect().right > vw + 0.5) r.wide.push('figure ' + f.parentElement.id);
  }
  const pre = document.createElement('pre');
  pre.id = 'aer-layout';
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
});
</script>
`

// layout is what layoutProbe measures, in CSS pixels from the page's top.
type layout struct {
	ViewportWidth, ViewportHeight, PageWidth  float64
	RankingTop, FriedmanBottom, NemenyiBottom float64
	FirstDataset                              float64
	Numbers                                   int
	Wrapped, Wide                             []string
}

// TestReportLayoutInBrowser opens report.html in headless Chromium at
// 1,400 x 900 and checks what a reader sees: the ranking table and the
// headline tests in the first screen, above the datasets' sections, no
// number wrapped in a table cell, and no table or figure wider than the
// window unless in a box that scrolls sideways.
func TestReportLayoutInBrowser(t *testing.T) {
	bin := chromium(t)
	cfg := tinyBench(t, t.TempDir())
	_, html := benchReport(t, cfg)
	page := filepath.Join(t.TempDir(), "report.html")
	if !strings.Contains(html, "</body>") {
		t.Fatal("report.html has no </body>")
	}
	if err := os.WriteFile(page, []byte(strings.Replace(html, "</body>", layoutProbe+"</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir="+t.TempDir(),
		"--window-size=1400,900", "--run-all-compositor-stages-before-draw", "--virtual-time-budget=5000",
		"--dump-dom", "file://"+page)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	_, after, ok := strings.Cut(string(dom), `<pre id="aer-layout">`)
	js, _, ok2 := strings.Cut(after, "</pre>")
	if !ok || !ok2 {
		t.Fatalf("chromium's DOM has no measurements (the probe did not run):\n%.2000s\n%s", dom, stderr.String())
	}
	var l layout
	if err := json.Unmarshal([]byte(strings.ReplaceAll(js, "&quot;", `"`)), &l); err != nil {
		t.Fatalf("measurements %q: %v", js, err)
	}
	t.Logf("%+v", l)
	screen := min(l.ViewportHeight, 900)
	if l.RankingTop < 0 || l.RankingTop > screen || l.FriedmanBottom < 0 || l.FriedmanBottom > screen || l.NemenyiBottom < 0 || l.NemenyiBottom > screen {
		t.Errorf("the ranking table (top at %.0f px) and its tests (Friedman's ending at %.0f px, Nemenyi's at %.0f) are not all in the first screen (%.0f px)",
			l.RankingTop, l.FriedmanBottom, l.NemenyiBottom, screen)
	}
	if l.FirstDataset < 0 || l.FirstDataset < l.RankingTop {
		t.Errorf("the first dataset's section (at %.0f px) is above the ranking (at %.0f px)", l.FirstDataset, l.RankingTop)
	}
	if l.Numbers < 50 {
		t.Errorf("%d table cells of numbers measured, want the report's tables'", l.Numbers)
	}
	if len(l.Wrapped) > 0 {
		t.Errorf("%d numbers wrap over lines in their cells at 1,400 px, such as %q", len(l.Wrapped), l.Wrapped[0])
	}
	if len(l.Wide) > 0 || l.PageWidth > l.ViewportWidth {
		t.Errorf("wider than the window (%.0f px; page %.0f px): %q", l.ViewportWidth, l.PageWidth, l.Wide)
	}
}
