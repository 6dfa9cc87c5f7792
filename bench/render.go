package bench

import (
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// doc is the report as a list of blocks, rendered as Markdown or HTML.
type doc struct{ blocks []block }

type block struct {
	level int    // heading level, 0 for others
	text  string // heading or paragraph text
	tab   *table
	fig   *figure
}

type table struct {
	head []string
	rows [][]string
}

// figure is one figure of the report: SVG and PNG files under the output
// directory (paths relative to it) and a caption.
type figure struct {
	svg, png string
	caption  string
}

func (d *doc) h(level int, text string) { d.blocks = append(d.blocks, block{level: level, text: text}) }
func (d *doc) p(text string)            { d.blocks = append(d.blocks, block{text: text}) }
func (d *doc) table(t *table)           { d.blocks = append(d.blocks, block{tab: t}) }
func (d *doc) figure(f figure)          { d.blocks = append(d.blocks, block{fig: &f}) }

func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// markdown writes the document as GitHub-flavoured Markdown; figures are
// linked as their PNG files.
func (d *doc) markdown(w io.Writer) error {
	ew := &errWriter{w: w}
	for _, b := range d.blocks {
		switch {
		case b.level > 0:
			ew.printf("%s %s\n\n", strings.Repeat("#", b.level), b.text)
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
		default:
			ew.printf("%s\n\n", b.text)
		}
	}
	return ew.err
}

// html writes the document as one self-contained HTML page: figures are
// the SVG files of out inlined, nothing is fetched from the network.
func (d *doc) html(w io.Writer, out string) error {
	ew := &errWriter{w: w}
	ew.printf(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>aer bench</title>
<style>
body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;line-height:1.4;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:0.85em}
th,td{border:1px solid #ccc;padding:0.25em 0.5em;text-align:right}
th:first-child,td:first-child{text-align:left}
th{background:#f3f3f3}
figure{margin:1em 0}
figure svg{max-width:100%%;height:auto}
figcaption{font-size:0.9em;color:#555}
</style></head><body>
`)
	for _, b := range d.blocks {
		switch {
		case b.level > 0:
			ew.printf("<h%d>%s</h%d>\n", b.level, html.EscapeString(b.text), b.level)
		case b.tab != nil:
			ew.printf("<table>\n<tr>")
			for _, h := range b.tab.head {
				ew.printf("<th>%s</th>", html.EscapeString(h))
			}
			ew.printf("</tr>\n")
			for _, r := range b.tab.rows {
				ew.printf("<tr>")
				for _, c := range r {
					ew.printf("<td>%s</td>", html.EscapeString(c))
				}
				ew.printf("</tr>\n")
			}
			ew.printf("</table>\n")
		case b.fig != nil:
			svg, err := os.ReadFile(filepath.Join(out, b.fig.svg))
			if err != nil {
				return err
			}
			s := string(svg)
			if i := strings.Index(s, "<svg"); i > 0 {
				s = s[i:] // drop the XML prolog, not allowed inside HTML
			}
			ew.printf("<figure>\n%s\n<figcaption>%s</figcaption>\n</figure>\n", s, html.EscapeString(b.fig.caption))
		default:
			ew.printf("<p>%s</p>\n", html.EscapeString(b.text))
		}
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
