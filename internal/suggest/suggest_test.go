package suggest

import (
	"fmt"
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"gbdt", "gbdt", 0},
		{"gdbt", "gbdt", 1},   // one transposition
		{"trian", "train", 1}, // one transposition
		{"kitten", "sitting", 3},
		{"ca", "abc", 3}, // OSA: no substring edited twice (true Damerau gives 2)
		{"svm9", "svm", 1}, {"smaples", "samples", 1}, {"seeed", "seed", 1},
		{"naïve", "naive", 1}, // runes, not bytes
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", c.b, c.a, got, c.want)
		}
	}
}

var methods = []string{"aer", "balanced-bagging", "balanced-rf", "dynens", "easy-ensemble", "gbdt", "gbdt-focal",
	"gbdt-leafwise", "gbdt-tuned", "logreg", "mlp-focal", "rus-gbdt", "rusboost", "smote-gbdt", "svm", "tree"}

func TestClose(t *testing.T) {
	for _, c := range []struct {
		word string
		want []string
	}{
		{"gdbt", []string{"gbdt"}},
		{"GBDT", []string{"gbdt"}}, // case ignored
		{"svm9", []string{"svm"}},
		{"logrge", []string{"logreg"}},
		{"balanced-fr", []string{"balanced-rf"}},
		{"balanced", []string{"balanced-bagging", "balanced-rf"}}, // a prefix of both
		{"rus", []string{"rus-gbdt", "rusboost"}},
		{"gbdt-", []string{"gbdt"}}, // one edit beats a prefix
		{"nope", nil}, {"x", nil}, {"random-forest", nil}, {"", nil},
		{"gbdtt", []string{"gbdt"}},
		{"aer", nil}, // itself is no suggestion
	} {
		if got := Close(c.word, methods); !slices.Equal(got, c.want) {
			t.Errorf("Close(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	// More than three equally close: no hint.
	if got := Close("ab", []string{"aa", "bb", "ac", "xb"}); got != nil {
		t.Errorf("four at one edit: %q, want none", got)
	}
}

func TestHint(t *testing.T) {
	flags := []string{"train", "valid", "out", "method", "seed"}
	for _, c := range []struct{ word, want string }{
		{"trian", " (did you mean --train?)"},
		{"sed", " (did you mean --seed?)"},
		{"vaild", " (did you mean --valid?)"},
		{"zzz", ""},
	} {
		if got := Hint(c.word, flags, "--"); got != c.want {
			t.Errorf("Hint(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	if got := Hint("balanced", methods, ""); got != " (did you mean balanced-bagging or balanced-rf?)" {
		t.Errorf("two names: %q", got)
	}
}

func ExampleHint() {
	fmt.Printf("unknown method %q%s\n", "gdbt", Hint("gdbt", []string{"aer", "gbdt", "svm"}, ""))
	// Output: unknown method "gdbt" (did you mean gbdt?)
}
