package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startProfile writes a CPU profile of the whole command to the file named
// by AER_CPUPROFILE, when set: a developer's hook (go tool pprof reads it),
// kept out of the flags because no user needs it. The returned function
// stops the profile and closes the file.
func startProfile() (stop func(), err error) {
	path := os.Getenv("AER_CPUPROFILE")
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("AER_CPUPROFILE: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("AER_CPUPROFILE: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
