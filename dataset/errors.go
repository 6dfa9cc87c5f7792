package dataset

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Sentinel errors, matched with errors.Is on the *Error that wraps them.
var (
	ErrEmpty         = errors.New("empty file: no header row")
	ErrUnsupported   = errors.New("unsupported format")
	ErrEncoding      = errors.New("column name is not UTF-8 text")
	ErrDropLabel     = errors.New("the label column cannot be dropped")
	ErrNoRows        = errors.New("no data rows")
	ErrRagged        = errors.New("wrong number of fields")
	ErrNotNumber     = errors.New("not a number")
	ErrInfinite      = errors.New("infinite value")
	ErrDuplicate     = errors.New("duplicate column name")
	ErrEmptyName     = errors.New("empty column name")
	ErrNoFeatures    = errors.New("no feature columns")
	ErrNoLabel       = errors.New("label column not found")
	ErrMissingLabel  = errors.New("missing label")
	ErrThirdClass    = errors.New("more than two classes")
	ErrUnknownClass  = errors.New("label is not one of the classes")
	ErrOneClass      = errors.New("only one class")
	ErrFewMinority   = errors.New("fewer than 2 rows of the positive class")
	ErrColumns       = errors.New("columns do not match")
	ErrBadSplitValue = errors.New("bad split value")
	ErrNoWeight      = errors.New("weight column not found")
	ErrBadWeight     = errors.New("weight is not a finite non-negative number")
	ErrNoID          = errors.New("id column not found")
	ErrIDColumn      = errors.New("the id column cannot be the label, weight or split column")
	ErrLabelLike     = errors.New("a feature column is named like a label")

	ErrTooManyCategories = errors.New("too many categories")
	ErrTooLarge          = errors.New("the table does not fit in memory")
	ErrLineTooLong       = errors.New("line too long")
	ErrTruncated         = errors.New("the file is truncated")
)

// Error locates a problem in an input file. Line is 1-based and counts the
// header; 0 means the problem is not on one line. Column is the header name
// of the column, or empty.
type Error struct {
	File   string
	Line   int
	Column string
	Value  string // the offending cell, when there is one
	Err    error  // one of the sentinel errors above, or a reader error
	Detail string // extra explanation appended to the message
	// numbers marks an ErrTooManyCategories column whose other cells are
	// numbers (a typo, not text): AutoText leaves it an error.
	numbers bool
}

// clipAt is the longest cell or name an error message quotes whole.
const clipAt = 80

// clip shortens s for a message: its first clipAt bytes (whole UTF-8
// characters) and how long it was.
func clip(s string) string {
	if len(s) <= clipAt {
		return s
	}
	cut := clipAt
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:cut], len(s))
}

// Error formats the error as "file: line N, column "C": "value": what was
// wrong (detail)", leaving out the parts that are not known.
func (e *Error) Error() string {
	msg := e.File
	if msg == "" {
		msg = "input"
	}
	if e.Line > 0 {
		msg += fmt.Sprintf(": line %d", e.Line)
	}
	if e.Column != "" {
		if e.Line > 0 {
			msg += ","
		} else {
			msg += ":"
		}
		msg += fmt.Sprintf(" column %q", clip(e.Column))
	}
	msg += ": "
	if e.Value != "" || errors.Is(e.Err, ErrNotNumber) {
		msg += fmt.Sprintf("%q: ", clip(e.Value))
	}
	msg += e.Err.Error()
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg
}

// Unwrap returns the underlying error, for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }
