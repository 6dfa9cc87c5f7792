//go:build unix

package memlimit

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// TestRoomUnder: the room under an address-space limit is the limit less
// VmSize, never negative; no limit or no VmSize is no answer.
func TestRoomUnder(t *testing.T) {
	status := fstest.MapFS{"proc/self/status": &fstest.MapFile{Data: []byte("Name:\taer\nVmPeak:\t 1400000 kB\nVmSize:\t 1282384 kB\n")}}
	for _, c := range []struct {
		limit uint64
		fsys  fstest.MapFS
		want  int64
		ok    bool
	}{
		{4 << 30, status, 4<<30 - 1282384*1024, true},
		{1 << 30, status, 0, true},
		{^uint64(0), status, 0, false},
		{4 << 30, fstest.MapFS{}, 0, false},
	} {
		if got, ok := roomUnder(c.limit, c.fsys); got != c.want || ok != c.ok {
			t.Errorf("roomUnder(%d) = %d, %v; want %d, %v", c.limit, got, ok, c.want, c.ok)
		}
	}
}

// TestAvailableUnderUlimit runs this test binary under ulimit -v 3 GB:
// Available there is what the limit leaves beside the process's own
// mapping (about 1.2 GB for an idle Go process), not the machine's free
// memory.
func TestAvailableUnderUlimit(t *testing.T) {
	if os.Getenv("MEMLIMIT_CHILD") == "1" {
		v, ok := Available()
		used, _ := vmSize(os.DirFS("/"))
		fmt.Printf("available=%d used=%d ok=%v\n", v, used, ok)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("VmSize is read from /proc")
	}
	const limitKB = 3 << 20
	cmd := exec.Command("sh", "-c", `ulimit -v `+strconv.Itoa(limitKB)+` && exec "$0" -test.run=^TestAvailableUnderUlimit$`, os.Args[0])
	cmd.Env = append(os.Environ(), "MEMLIMIT_CHILD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("cannot run under ulimit -v: %v", err)
	}
	var v, used int64
	var ok bool
	line := strings.SplitN(string(out), "\n", 2)[0]
	if _, err := fmt.Sscanf(line, "available=%d used=%d ok=%v", &v, &used, &ok); err != nil {
		t.Fatalf("child said %q: %v", out, err)
	}
	t.Logf("under ulimit -v 3 GB: %d MB available, %d MB mapped", v>>20, used>>20)
	if !ok || v <= 0 || v > limitKB<<10-used+64<<20 || v < limitKB<<10-used-256<<20 {
		t.Errorf("under ulimit -v 3 GB with %d MB mapped: Available() = %d MB, %v", used>>20, v>>20, ok)
	}
}
