package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer/internal/sharedtest"
)

// TestAnchorOf checks the pairs: the paper preset with the anchors'
// faithful AER, the default aer with AER+, the other methods at their
// defaults with their runs of the same settings, and no pair for any other
// parameters.
func TestAnchorOf(t *testing.T) {
	for _, c := range []struct {
		spec Spec
		want string
	}{
		{Spec{Name: "aer"}, "AER+"},
		{PaperPreset, "AER_exp_simplex"},
		{Spec{Name: "aer", Params: []Param{{"preset", "plus"}}}, ""},
		{Spec{Name: "aer", Params: []Param{{"preset", "paper"}, {"n_init", "3"}}}, ""},
		{Spec{Name: "aer", Params: []Param{{"n_init", "3"}}}, ""},
		{Spec{Name: "dynens"}, "DynEns_exp"},
		{Spec{Name: "logreg"}, "LR_balanced"},
		{Spec{Name: "logreg", Params: []Param{{"preset", "paper"}}}, ""},
		{Spec{Name: "gbdt"}, "XGB_default"},
		{Spec{Name: "gbdt", Params: []Param{{"n_estimators", "20"}}}, ""},
		{Spec{Name: "no-such-method"}, ""},
	} {
		if got := anchorOf(c.spec); got != c.want {
			t.Errorf("anchorOf(%s) = %q, want %q", c.spec, got, c.want)
		}
	}
}

// TestReadPlusMeans reads the AER+ column of the shared aerplus.md.
func TestReadPlusMeans(t *testing.T) {
	dir := filepath.Dir(sharedtest.Path(t, "anchors", "aerplus.md"))
	pm, err := readPlusMeans(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(pm.ba) != 8 || pm.ba["abalone_19"] != 0.740 || pm.ba["wine_quality"] != 0.765 || pm.seeds != "0-4" {
		t.Errorf("AER+ means %v, seeds %q; want 8 datasets, abalone_19 0.740, wine_quality 0.765, seeds 0-4", pm.ba, pm.seeds)
	}
	if _, ok := pm.ba["mean"]; ok {
		t.Error("the mean row read as a dataset")
	}
}

func TestReadPlusMeansErrors(t *testing.T) {
	dir := t.TempDir()
	if pm, err := readPlusMeans(dir); pm != nil || err != nil {
		t.Errorf("no file: %v, %v", pm, err)
	}
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "aerplus.md"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("# AER+\n\n| dataset | AER | AER+ |\n|---|---|---|\n| alpha | 0.7 | 0.8 |\n| beta | 0.6 | x.9 |\n")
	if _, err := readPlusMeans(dir); err == nil || !strings.Contains(err.Error(), "line 6") || !strings.Contains(err.Error(), `"x.9"`) {
		t.Errorf("bad value: %v", err)
	}
	write("# AER+\n\n| dataset | AER |\n|---|---|\n| alpha | 0.7 |\n")
	if _, err := readPlusMeans(dir); err == nil || !strings.Contains(err.Error(), "no table") {
		t.Errorf("no AER+ column: %v", err)
	}
	write("over seeds 3-5:\n\n| dataset | AER+ |\n|---|---|\n| alpha | 0.8 |\n| mean | 0.8 |\n\n| dataset | AER+ |\n|---|---|\n| beta | 0.1 |\n")
	pm, err := readPlusMeans(dir)
	if err != nil || len(pm.ba) != 1 || pm.ba["alpha"] != 0.8 || pm.seedsText() != "the anchors' seeds 3-5" {
		t.Errorf("first table: %+v, %v", pm, err)
	}
}
