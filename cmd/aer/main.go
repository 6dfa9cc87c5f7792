package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"
)

func main() {
	// Ctrl-C or SIGTERM cancels the context: a fit stops within a second,
	// writes nothing and exits non-zero; a second Ctrl-C kills at once.
	// A reader that goes away (aer ... | head) makes the next write to
	// stdout fail with EPIPE instead of SIGPIPE killing the process
	// (status 141); runContext turns that into errStdoutClosed, a quiet
	// exit with status 0: the reader asked for no more.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // the default action again: a second signal kills
	}()
	setMemoryLimit()
	stopProfile, err := startProfile()
	if err == nil {
		err = guarded(func() error { return runContext(ctx, os.Args[1:], os.Stdout, os.Stderr) })
		stopProfile()
	}
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// errInternal marks a panic: a bug, reported with exit status 3 rather
// than the runtime's 2, the status of a usage error.
var errInternal = errors.New("internal error (a bug: please report it with the command line)")

// errStdoutClosed marks a command whose standard output was closed by its
// reader (aer help explain | head -1): not a failure, so aer exits 0 and
// says nothing, as a command killed by SIGPIPE would say nothing.
var errStdoutClosed = errors.New("standard output closed by its reader")

// outputError is what runContext returns for command name whose run
// ended with err while its writes to stdout ended with werr (nil if
// they all succeeded). A reader that went away (EPIPE) ends it quietly
// unless the command failed for another reason; other lost output
// (a full disk) fails the command.
func outputError(name string, err, werr error) error {
	if werr == nil {
		return err
	}
	if errors.Is(werr, syscall.EPIPE) && (err == nil || errors.Is(err, errHelpShown) || errors.Is(err, syscall.EPIPE)) {
		return errStdoutClosed
	}
	if err == nil || errors.Is(err, errHelpShown) {
		// Output lost (a full disk): the command failed.
		return fmt.Errorf("%s: writing the output: %w", name, werr)
	}
	return err
}

// guarded runs f and turns a panic in it into errInternal.
func guarded(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errInternal, r)
			if os.Getenv("AER_TRACE") != "" {
				debug.PrintStack()
			}
		}
	}()
	return f()
}

// exitCode reports err on stderr and maps it to the documented exit status.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, errHelpShown) || errors.Is(err, errStdoutClosed) {
		return 0
	}
	fmt.Fprintf(stderr, "aer: %v\n", err)
	var ue *usageError
	switch {
	case errors.As(err, &ue):
		return 2
	case errors.Is(err, errInternal):
		return 3
	}
	return 1
}

// command is one subcommand of aer. Each lives in its own file and adds
// itself to the table with register, so commands can be developed apart.
type command struct {
	name    string
	summary string // one line for "aer help"
	usage   string // the synopsis line(s) shown before the flags
	// run executes the command; args excludes the command name. It stops
	// with ctx's error when ctx is cancelled.
	run func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("aer: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// run is the whole program without cancellation, for tests.
func run(args []string, stdout, stderr io.Writer) error {
	return runContext(context.Background(), args, stdout, stderr)
}

// runContext is the whole program; main only maps its error to an exit
// status, so tests drive every command in-process.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printOverview(stderr)
		return usageErrorf("no command given")
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		out := &stickyWriter{w: stdout}
		return outputError("help", runHelp(rest, out), out.err)
	case "version", "--version":
		out := &stickyWriter{w: stdout}
		fmt.Fprintln(out, "aer", version)
		return outputError("version", nil, out.err)
	}
	c, ok := commands[name]
	if !ok {
		printOverview(stderr)
		return usageErrorf("unknown command %q", name)
	}
	out := &stickyWriter{w: stdout}
	err := c.run(ctx, rest, out, stderr)
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%s: interrupted", name)
	}
	return outputError(name, err, out.err)
}

// stickyWriter passes writes to w until one fails, then fails every
// later write with that error and keeps it, so a command whose text
// output was lost (stdout on a full disk) cannot exit 0.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	s.err = err
	return n, err
}

// printf writes a formatted string to s.
func (s *stickyWriter) printf(format string, a ...any) { fmt.Fprintf(s, format, a...) }

const version = "0.1.0-dev"

func runHelp(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		printOverview(stdout)
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		return usageErrorf("help: unknown command %q", args[0])
	}
	// Each command prints its own flags when given -h.
	return c.run(context.Background(), append(append([]string(nil), args[1:]...), "-h"), stdout, stdout)
}

func printOverview(w io.Writer) {
	fmt.Fprintln(w, "aer: adaptive ensembles for imbalanced classification, of two classes or more")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w, "  aer <command> [flags]")
	fmt.Fprintln(w, "  aer help <command>")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exit status: 0 success, 1 failure, 2 usage error.")
	fmt.Fprintln(w, strings.TrimSpace(`
--json prints one JSON document on stdout; logs go to stderr.`))
}
