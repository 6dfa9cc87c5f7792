package bench

import (
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// doc is the report as a list of blocks, rendered as Markdown or HTML.
type doc struct{ blocks []block }

type block struct {
	level  int    // heading level, 0 for others
	id     string // the heading's or table's anchor (HTML id), "" for none
	text   string // heading or paragraph text
	caveat bool   // a paragraph that warns: set apart in both renderings
	tab    *table
	fig    *figure
	nav    []string // a line of links to these headings
}

type table struct {
	id   string // HTML id, "" for none
	head []string
	rows [][]string
}

// figure is one figure of the report: SVG and PNG files under the output
// directory (paths relative to it) and a caption.
type figure struct {
	svg, png string
	caption  string
}

// h adds a heading; its anchor is slug(text), as GitHub names it.
func (d *doc) h(level int, text string) {
	d.blocks = append(d.blocks, block{level: level, text: text, id: slug(text)})
}
func (d *doc) p(text string)      { d.blocks = append(d.blocks, block{text: text}) }
func (d *doc) caveat(text string) { d.blocks = append(d.blocks, block{text: text, caveat: true}) }
func (d *doc) table(t *table)     { d.blocks = append(d.blocks, block{tab: t}) }
func (d *doc) figure(f figure)    { d.blocks = append(d.blocks, block{fig: &f}) }

// navigation adds a line of links to the named headings.
func (d *doc) navigation(headings ...string) { d.blocks = append(d.blocks, block{nav: headings}) }

// slug is a heading's anchor as GitHub makes it: lower case, spaces as
// hyphens, punctuation other than - and _ dropped.
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// markdown writes the document as GitHub-flavoured Markdown; figures are
// linked as their PNG files.
func (d *doc) markdown(w io.Writer) error {
	ew := &errWriter{w: w}
	for _, b := range d.blocks {
		switch {
		case b.level > 0:
			ew.printf("%s %s\n\n", strings.Repeat("#", b.level), b.text)
		case b.nav != nil:
			links := make([]string, len(b.nav))
			for i, h := range b.nav {
				links[i] = fmt.Sprintf("[%s](#%s)", h, slug(h))
			}
			ew.printf("%s\n\n", strings.Join(links, " · "))
		case b.tab != nil:
			ew.printf("| %s |\n", strings.Join(mapStrings(b.tab.head, mdCell), " | "))
			seps := make([]string, len(b.tab.head))
			for i := range seps {
				seps[i] = "---"
				if i > 0 {
					seps[i] = "--:"
				}
			}
			ew.printf("|%s|\n", strings.Join(seps, "|"))
			for _, r := range b.tab.rows {
				ew.printf("| %s |\n", strings.Join(mapStrings(r, mdCell), " | "))
			}
			ew.printf("\n")
		case b.fig != nil:
			ew.printf("![%s](%s)\n\n*%s* (SVG: %s)\n\n", b.fig.caption, filepath.ToSlash(b.fig.png), b.fig.caption, filepath.ToSlash(b.fig.svg))
		case b.caveat:
			ew.printf("> **Caveat:** %s\n\n", b.text)
		default:
			ew.printf("%s\n\n", b.text)
		}
	}
	return ew.err
}

// htmlStyle lays the report out for a laptop screen: compact tables whose
// numbers never wrap, each table in its own horizontal scroll box (the
// page itself never scrolls sideways), and the figures side by side.
const htmlStyle = `body{font-family:system-ui,sans-serif;font-size:15px;max-width:1360px;margin:1em auto;padding:0 1em;line-height:1.4;color:#222}
h1{font-size:1.6em;margin:0.3em 0}
h2{font-size:1.3em;margin:1.2em 0 0.4em;border-bottom:1px solid #ddd}
h3{font-size:1.05em;margin:1em 0 0.3em}
p{max-width:75em;margin:0.4em 0}
nav{margin:0.3em 0 0.6em;font-size:0.9em}
nav a{margin-right:0.9em}
.caveat{background:#fff4d6;border-left:4px solid #e0a000;padding:0.3em 0.7em}
.scroll{overflow-x:auto;max-width:100%;margin:0.5em 0}
table{border-collapse:collapse;font-size:13px;line-height:1.3}
th,td{border:1px solid #ccc;padding:2px 6px;text-align:right;vertical-align:top}
th{background:#f3f3f3;font-weight:600;vertical-align:bottom;max-width:9em}
th:first-child,td:first-child{text-align:left;white-space:nowrap}
td.num{white-space:nowrap;font-variant-numeric:tabular-nums}
td .sd{color:#777;font-size:0.88em}
table.ranking tr:nth-child(-n+4) td:first-child{font-weight:600}
.figs{display:flex;flex-wrap:wrap;gap:0.5em 1em;align-items:flex-start;margin:0.5em 0}
figure{margin:0;flex:0 1 660px;min-width:320px}
figure svg{width:100%;height:auto}
figcaption{font-size:0.85em;color:#555}
`

// numeric says whether a table cell holds a number (a mean ± std, a
// count, a p-value, n/a, inf): such a cell is never wrapped.
func numeric(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	if s == "n/a" || s == "inf" || strings.HasPrefix(s, "Inf") {
		return true
	}
	return s[0] >= '0' && s[0] <= '9'
}

// htmlCell writes a cell's text; the spread of a "mean ± std" in a
// smaller grey, so the mean reads first.
func htmlCell(s string) string {
	if m, sd, ok := strings.Cut(s, " ± "); ok {
		return html.EscapeString(m) + `<span class="sd"> ±` + html.EscapeString(sd) + `</span>`
	}
	return html.EscapeString(s)
}

// html writes the document as one self-contained HTML page: figures are
// the SVG files of out inlined, nothing is fetched from the network.
func (d *doc) html(w io.Writer, out string) error {
	ew := &errWriter{w: w}
	ew.printf("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>aer bench</title>\n<style>\n%s</style></head><body>\n", htmlStyle)
	inFigs := false
	for _, b := range d.blocks {
		if (b.fig != nil) != inFigs {
			if inFigs {
				ew.printf("</div>\n")
			} else {
				ew.printf("<div class=\"figs\">\n")
			}
			inFigs = !inFigs
		}
		switch {
		case b.level > 0:
			ew.printf("<h%d id=\"%s\">%s</h%d>\n", b.level, html.EscapeString(b.id), html.EscapeString(b.text), b.level)
		case b.nav != nil:
			ew.printf("<nav>")
			for _, h := range b.nav {
				ew.printf("<a href=\"#%s\">%s</a>", html.EscapeString(slug(h)), html.EscapeString(h))
			}
			ew.printf("</nav>\n")
		case b.tab != nil:
			ew.printf("<div class=\"scroll\"><table")
			if b.tab.id != "" {
				ew.printf(" id=\"%s\" class=\"%s\"", html.EscapeString(b.tab.id), html.EscapeString(b.tab.id))
			}
			ew.printf(">\n<tr>")
			for _, h := range b.tab.head {
				ew.printf("<th>%s</th>", html.EscapeString(h))
			}
			ew.printf("</tr>\n")
			for _, r := range b.tab.rows {
				ew.printf("<tr>")
				for _, c := range r {
					if numeric(c) {
						ew.printf("<td class=\"num\">%s</td>", htmlCell(c))
					} else {
						ew.printf("<td>%s</td>", htmlCell(c))
					}
				}
				ew.printf("</tr>\n")
			}
			ew.printf("</table></div>\n")
		case b.fig != nil:
			svg, err := os.ReadFile(filepath.Join(out, b.fig.svg))
			if err != nil {
				return err
			}
			s := string(svg)
			if i := strings.Index(s, "<svg"); i > 0 {
				s = s[i:] // drop the XML prolog, not allowed inside HTML
			}
			ew.printf("<figure id=\"%s\">\n%s\n<figcaption>%s</figcaption>\n</figure>\n",
				html.EscapeString(strings.TrimSuffix(filepath.Base(b.fig.svg), ".svg")), s, html.EscapeString(b.fig.caption))
		case b.caveat:
			ew.printf("<p class=\"caveat\"><strong>Caveat:</strong> %s</p>\n", html.EscapeString(b.text))
		default:
			ew.printf("<p>%s</p>\n", html.EscapeString(b.text))
		}
	}
	if inFigs {
		ew.printf("</div>\n")
	}
	ew.printf("</body></html>\n")
	return ew.err
}

func mapStrings(s []string, f func(string) string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

// errWriter keeps the first write error so writers read straight.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, a ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, a...)
	}
}
