package learn

import "context"

// ColumnMap is an affine map of every feature, fitted by a preprocessing
// wrapper: value v of column j becomes (v - Shift[j]) / Scale[j], the
// same two operations dataset.Scaler.Transform performs.
type ColumnMap struct {
	Shift, Scale []float64
}

// Apply returns v mapped as a value of column j.
func (m *ColumnMap) Apply(j int, v float64) float64 {
	return (v - m.Shift[j]) / m.Scale[j]
}

// MappedFitter is a Method that copies its training rows anyway (into a
// layout of its own) and can apply a ColumnMap as it copies them. A
// wrapper that would otherwise copy the whole table only to map it
// (package prep's standardisation) fits it on the caller's rows instead,
// sparing one copy of the table: on millions of rows, gigabytes.
//
// FitMapped must return the model Fit would return on train with every
// feature mapped by cm (and valid as given, already mapped), bit for bit;
// train.X is only read.
type MappedFitter interface {
	Method
	FitMapped(ctx context.Context, train, valid *Data, cm *ColumnMap, env Env) (Scorer, error)
}
