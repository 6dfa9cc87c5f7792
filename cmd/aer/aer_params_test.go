package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAERParamNamespaces: aer help fit --method aer lists the members'
// parameters as member.KEY and the peers' as peer.NAME.KEY beside AER's own
// max_iter; a flat member key (the deprecated form) fits the model its
// member.KEY fits, and member.max_iter of logistic-regression members is
// not AER's max_iter.
func TestAERParamNamespaces(t *testing.T) {
	out, errOut, code := aer(t, "help", "fit", "--method", "aer")
	if code != 0 {
		t.Fatalf("help: %s", errOut)
	}
	keys := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			keys[f[0]] = true
		}
	}
	for _, k := range []string{"member", "member.max_depth", "member.n_estimators", "peers", "peer.logreg.C", "peer.logreg.max_iter", "max_iter", "tol"} {
		if !keys[k] {
			t.Errorf("aer help fit --method aer does not list %s", k)
		}
	}
	if keys["max_depth"] || keys["n_estimators"] {
		t.Error("aer help fit --method aer lists a member parameter without its namespace")
	}

	dir := t.TempDir()
	train, valid, test := aerTask(t, dir)
	scores := func(name string, params ...string) []byte {
		t.Helper()
		model, preds := filepath.Join(dir, name+".aer"), filepath.Join(dir, name+".csv")
		args := []string{"fit", "--method", "aer", "--train", train, "--valid", valid, "--out", model, "--seed", "1", "--param", "components=2", "--param", "n_init=1"}
		for _, p := range params {
			args = append(args, "--param", p)
		}
		if _, errOut, code := aer(t, args...); code != 0 {
			t.Fatalf("fit %v: %s", params, errOut)
		}
		if _, errOut, code := aer(t, "predict", "--model", model, "--data", test, "--out", preds); code != 0 {
			t.Fatalf("predict: %s", errOut)
		}
		b, err := os.ReadFile(preds)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if !bytes.Equal(scores("flat", "max_depth=2", "n_estimators=10"), scores("namespaced", "member.max_depth=2", "member.n_estimators=10")) {
		t.Error("max_depth and member.max_depth fit different models")
	}
	a := scores("member-iter", "member=logreg", "member.max_iter=1", "peers=none")
	b := scores("aer-iter", "member=logreg", "max_iter=1", "peers=none")
	if bytes.Equal(a, b) {
		t.Error("member.max_iter and AER's max_iter fit the same model")
	}
	if _, errOut, code := aer(t, "fit", "--method", "aer", "--train", train, "--out", filepath.Join(dir, "x.aer"), "--param", "peer.no_such_key=1"); code != 2 || !strings.Contains(errOut, "no_such_key") {
		t.Errorf("peer.no_such_key: exit %d, %s", code, errOut)
	}
}
