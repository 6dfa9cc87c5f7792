package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/aer-go/aer/internal/atomicfile"
	"github.com/aer-go/aer/internal/suggest"
)

// usageError marks a mistake in how aer was called (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usageErrorf(format string, a ...any) error {
	return &usageError{msg: fmt.Sprintf(format, a...)}
}

// errHelpShown is returned after -h printed a command's help: exit 0.
var errHelpShown = errors.New("help shown")

// newFlagSet returns a flag set for command c whose usage text goes to w.
func newFlagSet(c *command, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() { writeCommandHelp(fs, c) }
	return fs
}

// detailsHeading heads the prose of a command's help, after its flags.
const detailsHeading = "Details:"

// writeCommandHelp writes c's help to fs's output, the flags before the
// prose: the synopsis (c.usage's first paragraph), the one-line summary,
// the flags, then the rest of c.usage under detailsHeading. A reader
// looking for a flag finds it within the first lines, not after pages of
// explanation.
func writeCommandHelp(fs *flag.FlagSet, c *command) {
	w := fs.Output()
	synopsis, details := splitUsage(c.usage)
	fmt.Fprintf(w, "%s\n\n%s\n\nFlags:\n", synopsis, c.summary)
	fs.PrintDefaults()
	if details != "" {
		fmt.Fprintf(w, "\n%s\n\n%s\n", detailsHeading, details)
	}
}

// splitUsage cuts a command's usage text into its synopsis (the first
// paragraph: the usage lines) and the prose after it.
func splitUsage(usage string) (synopsis, details string) {
	synopsis, details, _ = strings.Cut(strings.TrimSpace(usage), "\n\n")
	return strings.TrimRight(synopsis, " \n"), strings.TrimSpace(details)
}

// parseFlags parses args into fs and turns the flag package's outcomes into
// aer's conventions: -h is a success, anything else wrong is a usage error.
// Positional arguments are returned.
//
// A mistake gives one line on stderr (the error, naming the flag, and where
// to find help), not the flag package's message followed by the whole help
// text; -h still prints the help.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(out)
	fs.Usage = usage
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage()
			return nil, errHelpShown
		}
		return nil, &usageError{msg: fmt.Sprintf("%s: %v%s (see aer help %s)", fs.Name(), err, flagHint(fs, err), fs.Name())}
	}
	return fs.Args(), nil
}

// undefinedFlag is how the flag package starts its error for a flag the
// set does not define; the name follows it.
const undefinedFlag = "flag provided but not defined: -"

// flagHint returns " (did you mean --train?)" for a parse error err
// about an undefined flag close to one of fs's (-trian), "" otherwise.
func flagHint(fs *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), undefinedFlag)
	if !ok {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return suggest.Hint(name, names, "--")
}

// parseNoArgs parses args like parseFlags for a command that takes flags
// only: a positional argument is a usage error naming it.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErrorf("%s: unexpected argument %q", fs.Name(), rest[0])
	}
	return nil
}

// writeJSON writes v as one indented JSON document.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // ">=" reads as itself
	return enc.Encode(v)
}

// writeFileAtomic writes path through a temporary file renamed into place,
// so a failing or interrupted (ctx done) command leaves nothing partial
// behind.
func writeFileAtomic(ctx context.Context, path string, write func(io.Writer) error) error {
	return atomicfile.WriteContext(ctx, path, write)
}

// isUsageError tells whether err is a usage error (exit status 2).
func isUsageError(err error) bool {
	var ue *usageError
	return errors.As(err, &ue)
}

// flagGiven tells whether the flag name was given on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// borrowFlags adds to fs the flags names of those register defines (on a
// scratch set), with their values, usage and defaults: a command taking
// some of another's flags.
func borrowFlags(fs *flag.FlagSet, register func(*flag.FlagSet), names ...string) {
	scratch := flag.NewFlagSet("", flag.ContinueOnError)
	register(scratch)
	for _, name := range names {
		f := scratch.Lookup(name)
		fs.Var(f.Value, f.Name, f.Usage)
	}
}
