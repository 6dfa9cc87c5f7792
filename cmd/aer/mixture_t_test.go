package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// aer mixture --family t: the report names the family and gives one nu per
// chosen component; --nu fixes them; Gaussian reports carry neither.
func TestMixtureFamilyT(t *testing.T) {
	data := "testdata/mixture/blobs.csv"
	out, errOut, code := aer(t, "mixture", "--data", data, "--components", "1-5", "--seed", "1", "--family", "t", "--json")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	var rep mixtureReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Family != "t" || rep.Chosen != 3 || len(rep.Nu) != rep.Chosen {
		t.Fatalf("family %q, L = %d, nu %v: want t, 3 and one nu per component", rep.Family, rep.Chosen, rep.Nu)
	}
	for _, v := range rep.Nu {
		if !(v > 0) {
			t.Errorf("nu %v", rep.Nu)
		}
	}
	// Estimated nu adds L parameters over the Gaussian's count:
	// L=3 full in 2-D is 3*3 + 3*2 + 2 = 17, plus 3.
	for _, c := range rep.Candidates {
		if c.Components == 3 && c.NParameters != 20 {
			t.Errorf("L=3 t mixture counts %d parameters, want 20", c.NParameters)
		}
	}

	out, errOut, code = aer(t, "mixture", "--data", data, "--components", "3", "--family", "t", "--nu", "5")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	if !strings.Contains(out, "family t, degrees of freedom nu [5 5 5]") {
		t.Errorf("--nu 5 should fix every nu at 5:\n%s", out)
	}

	out, _, code = aer(t, "mixture", "--data", data, "--components", "3", "--json")
	if code != 0 || strings.Contains(out, `"family"`) || strings.Contains(out, `"nu"`) {
		t.Errorf("Gaussian report (code %d) mentions the t family:\n%s", code, out)
	}
	for _, bad := range [][]string{{"--family", "cauchy"}, {"--nu", "3"}, {"--family", "t", "--nu", "-1"}} {
		if _, errOut, code := aer(t, append([]string{"mixture", "--data", data}, bad...)...); code != 2 {
			t.Errorf("%v: code %d, want a usage error (2): %s", bad, code, errOut)
		}
	}
}
