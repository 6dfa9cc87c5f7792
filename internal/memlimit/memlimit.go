package memlimit

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Available returns the bytes of memory the process may still allocate,
// and false when the system does not say (not Linux, no /proc): the
// system's available memory, within the control group's limit and the
// address-space limit (ulimit -v) less what the process has mapped.
func Available() (int64, bool) {
	root := os.DirFS("/")
	free, ok := available(root)
	if room, ok2 := addressRoom(root); ok2 && (!ok || room < free) {
		free, ok = room, true
	}
	return free, ok
}

// vmSize reads the process's mapped address space (VmSize of
// /proc/self/status).
func vmSize(root fs.FS) (int64, bool) { return kBField(root, "proc/self/status", "VmSize:") }

func available(root fs.FS) (int64, bool) {
	free, ok := memAvailable(root)
	if limit, used, ok2 := cgroupLimit(root); ok2 {
		room := max(limit-used, 0)
		if !ok || room < free {
			free, ok = room, true
		}
	}
	return free, ok
}

// memAvailable reads MemAvailable of /proc/meminfo.
func memAvailable(root fs.FS) (int64, bool) { return kBField(root, "proc/meminfo", "MemAvailable:") }

// kBField reads the "key  N kB" line of file as bytes.
func kBField(root fs.FS, file, key string) (int64, bool) {
	f, err := root.Open(file)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), key)
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		return kb * 1024, err == nil && kb >= 0
	}
	return 0, false
}

// noLimit is above any real limit: cgroup v1 writes "no limit" as a
// number near 2^63.
const noLimit = 1 << 62

// cgroupLimit reads the memory limit and usage of the process's control
// group, v2 first, then v1.
func cgroupLimit(root fs.FS) (limit, used int64, ok bool) {
	b, err := fs.ReadFile(root, "proc/self/cgroup")
	if err != nil {
		return 0, 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var dirs []string
		var limitFile, usageFile string
		switch {
		case parts[0] == "0" && parts[1] == "":
			dirs = []string{path.Join("sys/fs/cgroup", parts[2]), "sys/fs/cgroup"}
			limitFile, usageFile = "memory.max", "memory.current"
		case slices.Contains(strings.Split(parts[1], ","), "memory"):
			dirs = []string{path.Join("sys/fs/cgroup/memory", parts[2]), "sys/fs/cgroup/memory"}
			limitFile, usageFile = "memory.limit_in_bytes", "memory.usage_in_bytes"
		default:
			continue
		}
		for _, dir := range dirs {
			l, okL := readInt(root, path.Join(dir, limitFile))
			u, okU := readInt(root, path.Join(dir, usageFile))
			if okL && okU && l < noLimit {
				return l, u, true
			}
		}
	}
	return 0, 0, false
}

// readInt reads a file holding one number ("max" is no limit).
func readInt(root fs.FS, name string) (int64, bool) {
	b, err := fs.ReadFile(root, name)
	if err != nil {
		return 0, false
	}
	s := strings.TrimSpace(string(b))
	if s == "max" {
		return noLimit, true
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil && v >= 0
}

// PeakRSS returns the largest resident set the process has had (VmHWM of
// /proc/self/status), and false when the system does not say.
func PeakRSS() (int64, bool) {
	return peakRSS(os.DirFS("/"))
}

func peakRSS(root fs.FS) (int64, bool) {
	b, err := fs.ReadFile(root, "proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		rest, ok := strings.CutPrefix(line, "VmHWM:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		return kb * 1024, err == nil && kb > 0
	}
	return 0, false
}

// Format writes a size in GB with two decimals, or in MB below 1 GB, for
// the messages that name memory needed and available.
func Format(b int64) string {
	if b < 1<<30 {
		return fmt.Sprintf("%.0f MB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.2f GB", float64(b)/(1<<30))
}
