package stattest_test

import (
	"fmt"
	"log"

	"github.com/aer-go/aer/stattest"
)

func ExampleMcNemar() {
	// 100 test rows: both classifiers right on 50, only A right on 12,
	// only B right on 3, both wrong on 35.
	r, err := stattest.McNemar(stattest.McNemarTable{{50, 12}, {3, 35}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("chi2 = %.4f, p = %.4f\n", r.ChiSquare, r.ChiSquareP)
	fmt.Printf("exact: min(b,c) = %.0f, p = %.4f\n", r.ExactStatistic, r.ExactP)
	// Output:
	// chi2 = 4.2667, p = 0.0389
	// exact: min(b,c) = 3, p = 0.0352
}

func ExampleNewMcNemarTable() {
	correctA := []bool{true, true, true, false, true, true}
	correctB := []bool{true, false, false, false, true, false}
	t, err := stattest.NewMcNemarTable(correctA, correctB)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t)
	// Output:
	// [[2 3] [0 1]]
}

func ExampleWilcoxon() {
	// Balanced accuracy of two methods on eight datasets.
	a := []float64{0.81, 0.72, 0.95, 0.64, 0.58, 0.97, 0.84, 0.71}
	b := []float64{0.79, 0.70, 0.96, 0.60, 0.59, 0.93, 0.80, 0.66}
	r, err := stattest.Wilcoxon(a, b, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("W = %g (W+ = %g, W- = %g), n = %d, %v p = %.4f\n", r.Statistic, r.WPlus, r.WMinus, r.N, r.Mode, r.P)

	r, err = stattest.Wilcoxon(a, b, &stattest.WilcoxonOptions{Mode: stattest.Approx})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("normal approximation: z = %.4f, p = %.4f\n", r.Z, r.P)
	// Output:
	// W = 3 (W+ = 33, W- = 3), n = 8, exact p = 0.0391
	// normal approximation: z = -2.1082, p = 0.0350
}

func ExampleWilcoxon_zeros() {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	y := []float64{1, 1, 2, 5, 5, 7, 5, 9, 9, 8}
	for _, zm := range []stattest.ZeroMethod{stattest.Wilcox, stattest.Pratt, stattest.ZSplit} {
		r, err := stattest.Wilcoxon(x, y, &stattest.WilcoxonOptions{ZeroMethod: zm})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-6v W = %4.1f  n = %2d  zeros = %d  p = %.4f (%v)\n", zm, r.Statistic, r.N, r.Zeros, r.P, r.Mode)
	}
	// Output:
	// wilcox W =  9.0  n =  7  zeros = 3  p = 0.3795 (approx)
	// pratt  W = 18.0  n = 10  zeros = 3  p = 0.4935 (approx)
	// zsplit W = 21.0  n = 10  zeros = 3  p = 0.5006 (approx)
}

func ExampleFriedman() {
	// Balanced accuracy of three methods (columns) on five datasets (rows).
	scores := [][]float64{
		{0.91, 0.85, 0.80},
		{0.75, 0.77, 0.70},
		{0.88, 0.81, 0.79},
		{0.66, 0.61, 0.62},
		{0.93, 0.90, 0.84},
	}
	r, err := stattest.Friedman(scores, true)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("chi2 = %.2f, p = %.4f\n", r.ChiSquare, r.P)
	fmt.Printf("Iman-Davenport F(%g, %g) = %.2f, p = %.4f\n", r.DF1, r.DF2, r.ImanDavenport, r.ImanDavenportP)
	fmt.Printf("mean ranks %.1f\n", r.MeanRanks)

	nm, err := stattest.NewNemenyi(r.MeanRanks, r.N, 0.05)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("Nemenyi CD = %.3f\n", nm.CD)
	for _, p := range nm.Pairs {
		fmt.Printf("%d vs %d: rank difference %+.1f, significant %v\n", p.I, p.J, p.RankDiff, p.Significant)
	}
	// Output:
	// chi2 = 6.40, p = 0.0408
	// Iman-Davenport F(2, 8) = 7.11, p = 0.0168
	// mean ranks [1.2 2.0 2.8]
	// Nemenyi CD = 1.482
	// 0 vs 1: rank difference -0.8, significant false
	// 0 vs 2: rank difference -1.6, significant true
	// 1 vs 2: rank difference -0.8, significant false
}

func ExampleNemenyiCD() {
	cd, err := stattest.NemenyiCD(5, 12, 0.05)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.4f\n", cd)
	// Output:
	// 1.7609
}

func ExampleNemenyiQ() {
	// k <= 10 at alpha 0.05 or 0.10: Demsar's (2006) published value.
	q5, err := stattest.NemenyiQ(5, 0.05)
	if err != nil {
		log.Fatal(err)
	}
	// Otherwise computed from the studentized range distribution.
	q12, err := stattest.NemenyiQ(12, 0.05)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("k=5: %.3f, k=12: %.3f\n", q5, q12)
	// Output:
	// k=5: 2.728, k=12: 3.268
}
