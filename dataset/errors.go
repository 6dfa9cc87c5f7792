package dataset

import (
	"errors"
	"fmt"
)

// Sentinel errors, matched with errors.Is on the *Error that wraps them.
var (
	ErrEmpty         = errors.New("empty file: no header row")
	ErrUnsupported   = errors.New("unsupported format")
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
	ErrUnknownClass  = errors.New("label is not one of the two classes")
	ErrOneClass      = errors.New("only one class")
	ErrFewMinority   = errors.New("fewer than 2 rows of the positive class")
	ErrColumns       = errors.New("columns do not match")
	ErrBadSplitValue = errors.New("bad split value")
	ErrNoWeight      = errors.New("weight column not found")
	ErrBadWeight     = errors.New("weight is not a finite non-negative number")
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
}

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
		msg += fmt.Sprintf(" column %q", e.Column)
	}
	msg += ": "
	if e.Value != "" || errors.Is(e.Err, ErrNotNumber) {
		msg += fmt.Sprintf("%q: ", e.Value)
	}
	msg += e.Err.Error()
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }
