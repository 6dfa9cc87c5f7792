package aer

import (
	"fmt"
	"io"

	"github.com/aer-go/aer/learn"
)

// The checks every exported entry point of the package makes on what it
// is given, so that a nil (or zero) model, table, reader or writer is an
// error wrapping learn.ErrData, as Fit, Import and CrossValidate return,
// never a panic. Accessors that return no error return zero values
// instead.

// usable says whether m is a model Fit, Load, ReadModel, Import or
// Decide returned; a nil or zero *Model is an error.
func (m *Model) usable() error {
	if m == nil || m.header == nil || m.model == nil {
		return fmt.Errorf("%w: the model is nil or empty (models come from Fit, Load, ReadModel or Import)", learn.ErrData)
	}
	return nil
}

// usable says whether t holds a table; what names it in the error ("the
// table", "the validation table").
func (t *Table) usable(what string) error {
	if t == nil || t.d == nil {
		return fmt.Errorf("%w: %s is nil or empty (tables come from ReadTable, DecodeTable, NewTable, TableFromRows or TableOf)", learn.ErrData, what)
	}
	return nil
}

// readerGiven refuses a nil reader, named what.
func readerGiven(r io.Reader, what string) error {
	if r == nil {
		return fmt.Errorf("%w: %s: the reader is nil", learn.ErrData, what)
	}
	return nil
}

// writerGiven refuses a nil writer, named what.
func writerGiven(w io.Writer, what string) error {
	if w == nil {
		return fmt.Errorf("%w: %s: the writer is nil", learn.ErrData, what)
	}
	return nil
}
