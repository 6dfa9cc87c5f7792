package hugepage

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

func TestFloat64s(t *testing.T) {
	for _, n := range []int{0, 1, 1000, Threshold/8 - 1, Threshold / 8, 3 * Threshold} {
		s := Float64s(n)
		if len(s) != n {
			t.Fatalf("len %d, want %d", len(s), n)
		}
		for i := 0; i < n; i += 4093 {
			if s[i] != 0 {
				t.Fatalf("n=%d: s[%d] = %v, want 0", n, i, s[i])
			}
			s[i] = float64(i)
		}
	}
	if b := Bytes(Threshold + 5); len(b) != Threshold+5 || b[Threshold+4] != 0 {
		t.Error("Bytes")
	}
}

func TestGrow(t *testing.T) {
	var s []float64
	for i := range 100_000 {
		s = Grow(s, 1)
		s = append(s, float64(i))
	}
	for i, v := range s {
		if v != float64(i) {
			t.Fatalf("s[%d] = %v", i, v)
		}
	}
	if c := cap(s); c < 100_000 || c > 300_000 {
		t.Errorf("cap %d for 100000 elements", c)
	}
	same := Grow(s[:10], 5)
	if &same[0] != &s[0] {
		t.Error("Grow copied a slice that had room")
	}
}

// TestAdvise checks, where the kernel offers transparent huge pages on
// request, that the advice on a large slice is accepted (a wrong range
// would be refused with EINVAL), and logs how much of it the kernel
// backed with huge pages (a hint it may not follow when memory is
// fragmented).
func TestAdvise(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("transparent huge pages are Linux's")
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !strings.Contains(string(mode), "[madvise]") && !strings.Contains(string(mode), "[always]") {
		t.Skipf("transparent huge pages off here (%q)", strings.TrimSpace(string(mode)))
	}
	s := make([]float64, 64<<20/8) // 64 MB
	p := unsafe.Pointer(unsafe.SliceData(s))
	for _, off := range []int{0, 8, 4096, 1 << 20} { // aligned or not
		if err := advise(unsafe.Add(p, off), len(s)*8-off); err != nil {
			t.Fatalf("advise at offset %d: %v", off, err)
		}
	}
	for i := range s {
		s[i] = 1
	}
	t.Logf("the process holds %d kB in huge pages", anonHuge(t))
	runtime.KeepAlive(s)
}

// anonHuge returns the process's AnonHugePages (kB), -1 if unknown.
func anonHuge(t *testing.T) int {
	f, err := os.Open("/proc/self/smaps_rollup")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "AnonHugePages:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			if err != nil {
				t.Fatalf("smaps_rollup: %v", err)
			}
			return kb
		}
	}
	return -1
}
