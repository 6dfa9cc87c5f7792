package learn_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer/learn"
)

// knobs is a settings struct with one field of every declaration kind.
type knobs struct {
	Trees   int
	Rate    float64 // [0, 1]
	Lambda  float64 // [0, +Inf)
	Tol     float64 // any finite number
	Share   float64 // (0, 1)
	Verbose bool
	NoClean bool // the "clean" parameter, negated
	Loss    string
}

var knobParams = learn.ParamTable[knobs]{
	learn.Int("trees", "number of trees", 1, 1000, func(k *knobs) *int { return &k.Trees }),
	learn.Float("rate", "learning rate", 0, 1, func(k *knobs) *float64 { return &k.Rate }),
	learn.Float("lambda", "L2 penalty", 0, math.Inf(1), func(k *knobs) *float64 { return &k.Lambda }),
	learn.Float("tol", "tolerance", math.Inf(-1), math.Inf(1), func(k *knobs) *float64 { return &k.Tol }),
	learn.OpenFloat("share", "held-out share", 0, 1, func(k *knobs) *float64 { return &k.Share }),
	learn.Bool("verbose", "log more", false, func(k *knobs) *bool { return &k.Verbose }),
	learn.Bool("clean", "clean the data", true, func(k *knobs) *bool { return &k.NoClean }),
	learn.Enum("loss", "loss function", []string{"logistic", "focal"}, func(k *knobs) *string { return &k.Loss }),
}

func defaultKnobs() knobs {
	return knobs{Trees: 100, Rate: 0.3, Lambda: 1, Tol: 1e-6, Share: 0.25, Loss: "logistic"}
}

func TestParamTableSet(t *testing.T) {
	for _, tc := range []struct {
		key, value string
		want       func(k knobs) bool // nil: an error is expected
		errHas     string
	}{
		{"trees", "5", func(k knobs) bool { return k.Trees == 5 }, ""},
		{"trees", " 1 ", func(k knobs) bool { return k.Trees == 1 }, ""},
		{"trees", "0", nil, "at least 1"},
		{"trees", "-2", nil, "at least 1"},
		{"trees", "1000", func(k knobs) bool { return k.Trees == 1000 }, ""},
		{"trees", "1001", nil, "at most 1000"},
		{"trees", "2147483648", nil, "at most 1000"},
		{"trees", "99999999999999999999999", nil, "at most 1000"},
		{"trees", "2.5", nil, "want an integer"},
		{"trees", "", nil, "want an integer"},

		{"rate", "0", func(k knobs) bool { return k.Rate == 0 }, ""},
		{"rate", "1", func(k knobs) bool { return k.Rate == 1 }, ""},
		{"rate", "0.05", func(k knobs) bool { return k.Rate == 0.05 }, ""},
		{"rate", "1.0001", nil, "[0, 1]"},
		{"rate", "-1e-9", nil, "[0, 1]"},
		{"rate", "NaN", nil, "finite"},
		{"rate", "fast", nil, "finite"},

		{"lambda", "1e300", func(k knobs) bool { return k.Lambda == 1e300 }, ""},
		{"lambda", "-0.1", nil, "[0, +Inf]"},
		{"lambda", "Inf", nil, "finite"},
		{"tol", "-5", func(k knobs) bool { return k.Tol == -5 }, ""},
		{"tol", "-Inf", nil, "finite"},

		{"share", "0.5", func(k knobs) bool { return k.Share == 0.5 }, ""},
		{"share", "0", nil, "(0, 1)"},
		{"share", "1", nil, "(0, 1)"},
		{"share", "1.5", nil, "(0, 1)"},
		{"share", "half", nil, "finite"},

		{"verbose", "true", func(k knobs) bool { return k.Verbose }, ""},
		{"verbose", "1", func(k knobs) bool { return k.Verbose }, ""},
		{"verbose", "yes", nil, "true or false"},
		{"clean", "false", func(k knobs) bool { return k.NoClean }, ""},
		{"clean", "F", func(k knobs) bool { return k.NoClean }, ""},
		{"clean", "off", nil, "true or false"},

		{"loss", "focal", func(k knobs) bool { return k.Loss == "focal" }, ""},
		{"loss", " focal ", func(k knobs) bool { return k.Loss == "focal" }, ""},
		{"loss", "Focal", nil, "logistic, focal"},
		{"loss", "", nil, "logistic, focal"},
	} {
		k := defaultKnobs()
		before := k
		err := knobParams.Set(&k, tc.key, tc.value)
		if tc.want != nil {
			if err != nil {
				t.Errorf("Set(%s, %q): %v", tc.key, tc.value, err)
			} else if !tc.want(k) {
				t.Errorf("Set(%s, %q) gave %+v", tc.key, tc.value, k)
			}
			continue
		}
		if err == nil {
			t.Errorf("Set(%s, %q): no error, gave %+v", tc.key, tc.value, k)
			continue
		}
		if !errors.Is(err, learn.ErrParam) {
			t.Errorf("Set(%s, %q): %v does not wrap ErrParam", tc.key, tc.value, err)
		}
		for _, s := range []string{tc.key + "=", `"` + tc.value + `"`, tc.errHas} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("Set(%s, %q): %q does not say %q", tc.key, tc.value, err, s)
			}
		}
		if k != before {
			t.Errorf("Set(%s, %q) failed but changed the settings: %+v", tc.key, tc.value, k)
		}
	}
}

// TestParamTableNegatedBool: a negated Bool shows and sets the opposite of
// its field, so the zero field is the parameter's default true.
func TestParamTableNegatedBool(t *testing.T) {
	clean := func(k *knobs) string { return knobParams.List(k, k)[6].Value }
	var k knobs
	if got := clean(&k); got != "true" {
		t.Errorf("zero NoClean shows clean=%s, want true", got)
	}
	for _, tc := range []struct {
		value   string
		noClean bool
	}{{"false", true}, {" true", false}, {"0", true}, {"T", false}} {
		k.NoClean = !tc.noClean
		if err := knobParams.Set(&k, "clean", tc.value); err != nil {
			t.Fatal(err)
		}
		if k.NoClean != tc.noClean || clean(&k) != map[bool]string{true: "false", false: "true"}[tc.noClean] {
			t.Errorf("clean=%q: NoClean %v, shown %s", tc.value, k.NoClean, clean(&k))
		}
	}
}

func TestParamTableUnknownKey(t *testing.T) {
	k := defaultKnobs()
	err := knobParams.Set(&k, "depth", "3")
	if !errors.Is(err, learn.ErrParam) {
		t.Fatalf("unknown key: %v, want ErrParam", err)
	}
	want := `"depth" is unknown (known: trees, rate, lambda, tol, share, verbose, clean, loss)`
	if !strings.Contains(err.Error(), want) {
		t.Errorf("unknown key: %q, want it to say %q", err, want)
	}
	if k != defaultKnobs() {
		t.Errorf("an unknown key changed the settings: %+v", k)
	}
}

func TestParamTableKeysHas(t *testing.T) {
	want := []string{"trees", "rate", "lambda", "tol", "share", "verbose", "clean", "loss"}
	if got := knobParams.Keys(); !slices.Equal(got, want) {
		t.Errorf("Keys = %v, want %v", got, want)
	}
	for _, k := range want {
		if !knobParams.Has(k) {
			t.Errorf("Has(%q) = false", k)
		}
	}
	for _, k := range []string{"", "Trees", "no_clean", "trees "} {
		if knobParams.Has(k) {
			t.Errorf("Has(%q) = true", k)
		}
	}
	if (learn.ParamTable[knobs]{}).Has("trees") || len((learn.ParamTable[knobs]{}).Keys()) != 0 {
		t.Error("the empty table has keys")
	}
}

func TestParamTableList(t *testing.T) {
	def := defaultKnobs()
	cur := def
	for _, kv := range [][2]string{{"trees", "20"}, {"rate", "0.1"}, {"clean", "false"}, {"verbose", "true"}, {"loss", "focal"}} {
		if err := knobParams.Set(&cur, kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	got := knobParams.List(&cur, &def)
	want := []learn.Param{
		{Key: "trees", Value: "20", Default: "100", Help: "number of trees"},
		{Key: "rate", Value: "0.1", Default: "0.3", Help: "learning rate"},
		{Key: "lambda", Value: "1", Default: "1", Help: "L2 penalty"},
		{Key: "tol", Value: "1e-06", Default: "1e-06", Help: "tolerance"},
		{Key: "share", Value: "0.25", Default: "0.25", Help: "held-out share"},
		{Key: "verbose", Value: "true", Default: "false", Help: "log more"},
		{Key: "clean", Value: "false", Default: "true", Help: "clean the data"},
		{Key: "loss", Value: "focal", Default: "logistic", Help: "loss function (logistic, focal)"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("List:\n got %+v\nwant %+v", got, want)
	}

	// Every listed value sets back to the same settings.
	back := def
	for _, p := range got {
		if err := knobParams.Set(&back, p.Key, p.Value); err != nil {
			t.Errorf("Set(%s, %q) of a listed value: %v", p.Key, p.Value, err)
		}
	}
	if back != cur {
		t.Errorf("setting the listed values gave %+v, want %+v", back, cur)
	}
	if m := learn.ParamMap(got); len(m) != len(got) || m["trees"] != "20" || m["clean"] != "false" {
		t.Errorf("ParamMap = %v", m)
	}
}

func TestFormatParseFloat(t *testing.T) {
	for _, v := range []float64{0, 0.1, 1.0 / 3, -2.5e-300, 1e21, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		s := learn.FormatFloat(v)
		back, err := learn.ParseFloat(s)
		if err != nil || back != v {
			t.Errorf("FormatFloat(%v) = %q parses to %v, %v", v, s, back, err)
		}
	}
	if s := learn.FormatFloat(0.1); s != "0.1" {
		t.Errorf("FormatFloat(0.1) = %q", s)
	}
	for _, s := range []string{"", "x", "NaN", "nan", "Inf", "-inf", "+Inf", "1e999", "1,5"} {
		if _, err := learn.ParseFloat(s); err == nil {
			t.Errorf("ParseFloat(%q): no error", s)
		}
	}
	if f, err := learn.ParseFloat(" 2.5\n"); err != nil || f != 2.5 {
		t.Errorf("ParseFloat with spaces: %v, %v", f, err)
	}
}
