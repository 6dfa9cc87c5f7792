package adaptive

import (
	"bytes"
	"strings"
	"testing"

	"github.com/aer-go/aer/ensemble"
)

// TestExplanationHeader: the members' share column says what its values
// are, w*.f(x) of probabilities or w*.logit f(x) of log-odds, and the
// member column is as wide as the longest name.
func TestExplanationHeader(t *testing.T) {
	for _, c := range []struct {
		space     ensemble.Space
		want, not string
	}{
		{ensemble.ProbabilitySpace, "w*.f(x)", "logit"},
		{ensemble.LogitSpace, "w*.logit f(x)", ""},
	} {
		e := &Explanation{Members: []string{"global 0", "all rows (logreg)"}, Explanation: &ensemble.Explanation{
			Space: c.space, Likelihood: []float64{1, 0}, Static: []float64{0.5, 0.5}, Mixed: []float64{0.5, 0.5},
			Member: []float64{0.2, 0.4}, Contribution: []float64{0.1, 0.2}}}
		var buf bytes.Buffer
		if err := e.WriteText(&buf); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if !strings.Contains(out, c.want) || c.not != "" && strings.Contains(out, c.not) {
			t.Errorf("space %v: header without %q (or with %q):\n%s", c.space, c.want, c.not, out)
		}
		lines := strings.Split(out, "\n")
		var member []string
		for _, l := range lines {
			if strings.HasPrefix(l, "  member") || strings.HasPrefix(l, "  global 0") || strings.HasPrefix(l, "  all rows") {
				member = append(member, l)
			}
		}
		if len(member) != 3 || len(member[0]) != len(member[1]) || len(member[1]) != len(member[2]) {
			t.Errorf("space %v: member table not aligned:\n%s", c.space, strings.Join(member, "\n"))
		}
	}
}
