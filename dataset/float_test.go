package dataset

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// sameParse fails unless parseFloat(s) and strconv.ParseFloat(s, 64)
// agree: the same bits, and an error from both or neither.
func sameParse(t testing.TB, s string) {
	t.Helper()
	want, werr := strconv.ParseFloat(s, 64)
	got, gerr := parseFloat(s)
	if math.Float64bits(got) != math.Float64bits(want) || (gerr == nil) != (werr == nil) {
		t.Fatalf("parseFloat(%q) = %v (%x), %v; strconv.ParseFloat gives %v (%x), %v",
			s, got, math.Float64bits(got), gerr, want, math.Float64bits(want), werr)
	}
	if gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("parseFloat(%q) error %q, strconv.ParseFloat's %q", s, gerr, werr)
	}
}

// floatSeeds are inputs near every edge of the decimal fast path.
var floatSeeds = []string{
	"0", "-0", "+0", "0.0", "-0.0", "-0e5", "0e99999", "-0e-99999", "00000", ".0", "0.", ".", "-", "+", "", " 1", "1 ",
	"1", "-1", "+1", "12345", "1.5", ".5", "5.", "-.5", "+.5e1", "1e", "1e+", "1e-", "1E5", "1e+5", "1e-5", "1e05",
	"1e19", "1e20", "1e-19", "1e-20", "1e-22", "1e22", "1e23", "9e-20", "123456789e-28",
	"-0.20080618744060041", "0.15967217466335393", "3.11173229215969", "8.939382306323544",
	"9007199254740992", "9007199254740993", "9007199254740995", "18014398509481985", "18014398509481986",
	"9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
	"9999999999999999999", "99999999999999999999", "1234567890123456789", "12345678901234567890",
	"0.1", "0.2", "0.3", "0.7", "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308", "1.8e308",
	"1e-400", "1e400", "-1e400", "inf", "-Inf", "+INF", "infinity", "nan", "NaN", "0x1p-2", "0x1.8p1", "1_000", "0x_1p0",
	"1..2", "1.2.3", "1e5e5", "--1", "+-1", "1-", "e5", ".e5", "1.e5", "1,5", "١", "0.000000000000000000001",
	"100000000000000000000000", "0.0000000000000000001234", "1.00000000000000000000", "00000000000000000000001",
	"7.038531e-26", "2.5e-1", "0.5000000000000000000", "4503599627370496.5", "4503599627370497.5",
	"9007199254740993e-3", "1.0000000000000002", "1.00000000000000011102230246251565",
	"5e-324", "17976931348623157e292", "3.4028235e38", "1e9999", "1e10000", "1e-10000",
	// Subnormals and their edges, halfway included.
	"2.2250738585072011e-308", "2.2250738585072012e-308", "2.4703282292062327e-324", "2.4703282292062328e-324",
	"4.9406564584124654e-324", "0.0000000000000000000000000000001e-290",
	// Near overflow: the largest float64, the halfway above it, past it.
	"1.7976931348623158e308", "1.7976931348623159e308", "8.988465674311579e307", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999",
	// The ends of Eisel-Lemire's table and past them.
	"1e-348", "1e-349", "1e347", "1e348", "9.999999999999999e-349", "123456789e-356",
	// 19 and 20 digits, with zeros in front, behind and between.
	"1234567890123456789.0", "0.1234567890123456789", "0.12345678901234567891", "000000000000000000001.5",
	"1.0000000000000000000", "10000000000000000000", "18446744073709551616.5", "9999999999999999999.5",
	"0.1000000000000000055511151231257827021181583404541015625", "123456789012345678901234567890",
	"9007199254740993.0000000001", "9007199254740992.9999999999", "1.00000000000000011102230246251565404236316680908203125",
	// Exponent spellings.
	"1e0000", "1e00001", "1E+0009", "1e-0", "0e", "0e+", "1e5.5", "1ee5", "1e--5", "5e-1,",
	// Signs, dots and spaces strconv refuses or takes.
	"-.", "+-0", "-+0", "00.5", "+.5", "-5.", "+5.e2", ". 5", "1 .5", "\t1", "1\n", "-0.20080618744060041,",
	// Underscores (only after a base prefix), hex floats, inf and nan.
	"1_2.5", "0_1", "0x1_0p0", "0x1.fffffffffffffp1023", "0x1p-1074", "0x1p-1075", "0x1p1024", "0X1P+2", "0x.8p1", "0x1", "0x1p",
	"+inf", "-infinity", "INFINITY", "iNf", "NAN", "+nan", "-nan", "nan(1)", "infx", "in",
}

func TestParseFloat(t *testing.T) {
	for _, s := range floatSeeds {
		sameParse(t, s)
	}
	// The fast path must take the cells of numeric tables.
	for _, s := range []string{"-0.20080618744060041", "0.15967217466335393", "12", "-3.5e-7", "1e19", "0"} {
		if _, j, ok := scanFloat(s, 0); !ok || j != len(s) {
			t.Errorf("scanFloat(%q) fell back to strconv", s)
		}
	}
	// Random values written in every form strconv writes, and halfway
	// cases (a value between two float64 written exactly).
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var v float64
		switch r.IntN(4) {
		case 0:
			v = r.NormFloat64()
		case 1:
			v = math.Float64frombits(r.Uint64())
		case 2:
			v = float64(r.Int64N(1<<62)) / math.Pow(10, float64(r.IntN(25)))
		default:
			v = r.Float64() * math.Pow(10, float64(r.IntN(40)-20))
		}
		for _, s := range []string{
			strconv.FormatFloat(v, 'g', -1, 64), strconv.FormatFloat(v, 'e', r.IntN(20), 64),
			strconv.FormatFloat(v, 'f', r.IntN(20), 64), strconv.FormatFloat(v, 'g', r.IntN(19)+1, 64),
		} {
			sameParse(t, s)
		}
		// A value halfway between two neighbouring float64 (exact in
		// decimal), and just around it.
		if v != 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
			mid := strconv.FormatFloat(v, 'e', -1, 64)
			sameParse(t, mid+"1")
			sameParse(t, mid+"9")
		}
	}
	// Integers (ints read as floats: every row id, count and code).
	for range 100000 {
		n := r.Uint64() >> r.IntN(64)
		sameParse(t, strconv.FormatUint(n, 10))
		sameParse(t, "-"+strconv.FormatUint(n, 10))
	}
}

// TestParseFloatHalfway checks the rounding of decimals exactly halfway
// between two float64 above 2^53, and a hair above and below.
func TestParseFloatHalfway(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		// n odd times 2^k, k >= 1, with n of 54 bits: halfway between
		// the float64 n-1 and n+1 times 2^k.
		n := uint64(1)<<53 | r.Uint64()>>11 | 1
		k := r.IntN(10)
		h := n << k
		s := strconv.FormatUint(h, 10)
		sameParse(t, s)
		sameParse(t, strconv.FormatUint(h+1, 10))
		sameParse(t, strconv.FormatUint(h-1, 10))
		// The same digits with a decimal point put in.
		if len(s) > 2 {
			p := 1 + r.IntN(len(s)-1)
			sameParse(t, s[:p]+"."+s[p:])
			sameParse(t, "0."+s+"e3")
		}
	}
}

func TestParseFloatAllocs(t *testing.T) {
	cells := []string{"-0.20080618744060041", "1e5", "12345", "abc", "1e400"}
	var sink float64
	allocs := testing.AllocsPerRun(100, func() {
		for _, c := range cells[:3] {
			v, _ := parseFloat(c)
			sink += v
		}
	})
	if allocs != 0 {
		t.Errorf("parseFloat allocates %v times per run of numeric cells", allocs)
	}
	_ = sink
}

func FuzzParseFloat(f *testing.F) {
	for _, s := range floatSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameParse(t, s)
	})
}

var floatSink float64

// benchCells are cells as a numeric CSV holds them: shortest round-trip
// forms of normal draws.
func benchCells() []string {
	r := rand.New(rand.NewPCG(5, 6))
	cells := make([]string, 4096)
	for i := range cells {
		cells[i] = strconv.FormatFloat(r.NormFloat64(), 'g', -1, 64)
	}
	return cells
}

func BenchmarkParseFloat(b *testing.B) {
	cells := benchCells()
	b.Run("fast", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			v, _ := parseFloat(cells[i&4095])
			floatSink += v
		}
	})
	// A row's cells as fastRow reads them: one ns/op per cell.
	b.Run("cells", func(b *testing.B) {
		line := strings.Join(cells, ",") + ","
		x := make([]float64, len(cells))
		for b.Loop() {
			for i, q := 0, 0; q < len(x); {
				var d int
				i, d = scanCells(line, i, ',', x[q:], nil)
				if q += d; q < len(x) {
					var j int
					x[q], j, _ = scanFloat(line, i)
					i, q = j+1, q+1
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cells)), "ns/cell")
		floatSink += x[0]
	})
	b.Run("strconv", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			v, _ := strconv.ParseFloat(cells[i&4095], 64)
			floatSink += v
		}
	})
}

// checkCells fails unless every cell scanCells reads from line (cells
// separated by commas) is strconv.ParseFloat's value of its text, and
// it stops only at a cell of another shape or at the last one.
func checkCells(t testing.TB, line string) {
	t.Helper()
	cells := strings.Split(line, ",")
	x := make([]float64, len(cells))
	starts := make([]int32, len(cells))
	i, q := scanCells(line, 0, ',', x, starts)
	if q > len(cells)-1 {
		t.Fatalf("scanCells(%q) read %d cells, past the last comma", line, q)
	}
	off := 0
	for k, c := range cells[:q] {
		want, err := strconv.ParseFloat(c, 64)
		if err != nil || math.Float64bits(x[k]) != math.Float64bits(want) || int(starts[k]) != off {
			t.Fatalf("scanCells(%q): cell %d %q read as %v (%x) at %d; strconv: %v (%x), %v at %d",
				line, k, c, x[k], math.Float64bits(x[k]), starts[k], want, math.Float64bits(want), err, off)
		}
		off += len(c) + 1
	}
	if i != off {
		t.Fatalf("scanCells(%q) stopped at %d after %d cells, want %d", line, i, q, off)
	}
}

func TestScanCells(t *testing.T) {
	checkCells(t, "-0.20080618744060041,0.15967217466335393,-1.4083022934823703,1,")
	checkCells(t, "1.5,2.5,1e5,3.5,")
	checkCells(t, "0.0,1.25,")
	checkCells(t, "+.5,-5.,.,5")
	// The cells of numeric tables take the fast loop, all but the one
	// in about 512 whose first 64-bit product may be short by one.
	line := strings.Join(benchCells(), ",") + ","
	x := make([]float64, 4096)
	left := 0
	for i, q := 0, 0; q < len(x); {
		var d int
		i, d = scanCells(line, i, ',', x[q:], nil)
		if q += d; q < len(x) {
			left++
			_, j, ok := scanFloat(line, i)
			if !ok || line[j] != ',' {
				t.Fatalf("cell %d at byte %d: scanFloat fails", q, i)
			}
			i, q = j+1, q+1
		}
	}
	if left > 4096/100 {
		t.Errorf("scanCells left %d of 4096 cells to scanFloat", left)
	}
	r := rand.New(rand.NewPCG(7, 8))
	var b strings.Builder
	for range 20000 {
		b.Reset()
		for range 1 + r.IntN(30) {
			var v float64
			switch r.IntN(3) {
			case 0:
				v = r.NormFloat64()
			case 1:
				v = math.Float64frombits(r.Uint64())
			default:
				v = r.Float64() * math.Pow(10, float64(r.IntN(40)-20))
			}
			switch r.IntN(4) {
			case 0:
				b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			case 1:
				b.WriteString(strconv.FormatFloat(v, 'f', r.IntN(20), 64))
			case 2:
				b.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
			default:
				// Halfway and near-halfway decimals.
				b.WriteString(strconv.FormatFloat(v, 'f', -1, 64) + "1")
			}
			b.WriteByte(',')
		}
		checkCells(t, b.String())
	}
}

func FuzzScanCells(f *testing.F) {
	f.Add("-0.20080618744060041,0.15967217466335393,1e5,")
	f.Add("0.5,.5,5.,+0.1,-0.0,0.3,")
	for _, s := range floatSeeds {
		f.Add(s + "," + s + ",")
	}
	f.Fuzz(func(t *testing.T, line string) {
		checkCells(t, line)
	})
}

// TestPow10Table checks every entry of pow10Tab against math/big: the
// 128 leading bits of 10^e, truncated.
func TestPow10Table(t *testing.T) {
	if len(pow10Tab) != pow10Max-pow10Min+1 {
		t.Fatalf("%d entries for 10^%d to 10^%d", len(pow10Tab), pow10Min, pow10Max)
	}
	ten := big.NewInt(10)
	for e := pow10Min; e <= pow10Max; e++ {
		p := new(big.Int).Exp(ten, big.NewInt(int64(max(e, -e))), nil)
		var d *big.Int
		if e >= 0 {
			// The top 128 bits of 10^e.
			d = new(big.Int).Set(p)
			if n := d.BitLen(); n > 128 {
				d.Rsh(d, uint(n-128))
			} else {
				d.Lsh(d, uint(128-n))
			}
		} else {
			// floor(2^k / 10^-e) with k making it 128 bits long.
			k := p.BitLen() + 127
			d = new(big.Int).Lsh(big.NewInt(1), uint(k))
			d.Quo(d, p)
			if d.BitLen() > 128 {
				d.Rsh(d, uint(d.BitLen()-128))
			}
		}
		lo := new(big.Int).And(d, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
		hi := new(big.Int).Rsh(d, 64).Uint64()
		if got := pow10Tab[e-pow10Min]; got != [2]uint64{hi, lo} {
			t.Fatalf("pow10Tab for 1e%d = %#x, %#x; want %#x, %#x", e, got[0], got[1], hi, lo)
		}
	}
}
