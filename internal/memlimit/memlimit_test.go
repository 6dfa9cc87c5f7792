package memlimit

import (
	"runtime"
	"testing"
	"testing/fstest"
)

const meminfo = "MemTotal:       24000000 kB\nMemFree:        1000 kB\nMemAvailable:   20000000 kB\n"

func TestAvailable(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  int64
		ok    bool
	}{
		{"meminfo only", map[string]string{"proc/meminfo": meminfo}, 20000000 * 1024, true},
		{"v2 limit", map[string]string{
			"proc/meminfo":                     meminfo,
			"proc/self/cgroup":                 "0::/job\n",
			"sys/fs/cgroup/job/memory.max":     "4294967296\n",
			"sys/fs/cgroup/job/memory.current": "1073741824\n",
		}, 3 << 30, true},
		{"v2 max is no limit", map[string]string{
			"proc/meminfo":                     meminfo,
			"proc/self/cgroup":                 "0::/job\n",
			"sys/fs/cgroup/job/memory.max":     "max\n",
			"sys/fs/cgroup/job/memory.current": "1073741824\n",
		}, 20000000 * 1024, true},
		{"v1 limit, namespaced path absent", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "5:devices:/\n4:memory:/box/1\n0::/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "2147483648\n",
			"sys/fs/cgroup/memory/memory.usage_in_bytes": "2147483648\n",
		}, 0, true},
		{"v1 no limit", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "4:memory:/box\n",
			"sys/fs/cgroup/memory/box/memory.limit_in_bytes": "9223372036854771712\n",
			"sys/fs/cgroup/memory/box/memory.usage_in_bytes": "1000\n",
		}, 20000000 * 1024, true},
		{"nothing", map[string]string{}, 0, false},
	} {
		fsys := fstest.MapFS{}
		for p, b := range c.files {
			fsys[p] = &fstest.MapFile{Data: []byte(b)}
		}
		got, ok := available(fsys)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %d, %v; want %d, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestAvailableHere(t *testing.T) {
	v, ok := Available()
	if runtime.GOOS == "linux" && (!ok || v <= 0) {
		t.Fatalf("Available() = %d, %v on Linux", v, ok)
	}
	t.Logf("%d MB available", v>>20)
}

func TestPeakRSS(t *testing.T) {
	fsys := fstest.MapFS{"proc/self/status": &fstest.MapFile{Data: []byte("Name:\taer\nVmPeak:\t  900000 kB\nVmHWM:\t  123456 kB\nVmRSS:\t  100000 kB\n")}}
	if got, ok := peakRSS(fsys); got != 123456*1024 || !ok {
		t.Errorf("peakRSS = %d, %v; want %d, true", got, ok, 123456*1024)
	}
	if _, ok := peakRSS(fstest.MapFS{"proc/self/status": &fstest.MapFile{Data: []byte("Name:\taer\n")}}); ok {
		t.Error("peakRSS without VmHWM: ok")
	}
	if runtime.GOOS != "linux" {
		return
	}
	before, ok := PeakRSS()
	if !ok || before <= 0 {
		t.Fatalf("PeakRSS() = %d, %v on Linux", before, ok)
	}
	// Touching 64 MB more than the process had raises its peak.
	b := make([]byte, before+64<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	after, _ := PeakRSS()
	if after < before+32<<20 {
		t.Errorf("peak RSS %d after touching %d bytes, %d before", after, len(b), before)
	}
	runtime.KeepAlive(b)
}
