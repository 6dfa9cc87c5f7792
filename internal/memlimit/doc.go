// Package memlimit tells how much memory the process may still take: the
// kernel's MemAvailable, bounded by the limit of the process's control
// group (cgroup v2 memory.max, or v1 memory.limit_in_bytes) less its
// usage, and by the address-space limit (RLIMIT_AS, ulimit -v) less what
// the process maps already (VmSize: about 1.2 GB of it, in an idle Go
// process, is address space the runtime reserves and never touches).
// Readers of large tables check their growth against it to fail
// with a message naming the memory needed, rather than be killed by the
// kernel.
package memlimit
