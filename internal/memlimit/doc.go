// Package memlimit tells how much memory the process may still take: the
// kernel's MemAvailable, bounded by the limit of the process's control
// group (cgroup v2 memory.max, or v1 memory.limit_in_bytes) less its
// usage. Readers of large tables check their growth against it to fail
// with a message naming the memory needed, rather than be killed by the
// kernel.
package memlimit
