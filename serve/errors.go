package serve

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/aer-go/aer/internal/quote"
)

// Error is a request the server refuses, sent as the JSON document
// {"error": Msg, "row": Row, "field": Field} with status Status.
type Error struct {
	// Status is the HTTP status: 400 for a request that cannot be
	// scored as sent, 404 for an unknown model or route, 405 for a wrong
	// method, 413 for a body, a batch or an answer (Options.MaxCells)
	// over the limits, 415 for a body
	// that is neither JSON nor CSV, 503 when the server is saturated or
	// shutting down.
	Status int `json:"-"`
	// Kind is a short name of the mistake, the label of the errors
	// counter in /metrics ("malformed_json", "feature_count", ...).
	Kind string `json:"-"`
	// Msg says what was wrong and where.
	Msg string `json:"error"`
	// Row is the 1-based row of the request the error is about (for
	// CSV, the first line after the header is row 1); 0 when none.
	Row int `json:"row,omitempty"`
	// Field is the feature (column) the error is about, if any.
	Field string `json:"field,omitempty"`
	// Err is the underlying error, if any.
	Err error `json:"-"`
}

// Error returns Msg, what was wrong and where.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns the underlying error, if any, for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// Kinds of errors, as counted in /metrics.
const (
	kindMalformedJSON  = "malformed_json"
	kindMalformedCSV   = "malformed_csv"
	kindFeatureCount   = "feature_count"
	kindUnknownFeature = "unknown_feature"
	kindMissingFeature = "missing_feature"
	kindNotNumber      = "not_number"
	kindNotFinite      = "not_finite"
	kindNotScorable    = "not_scorable"
	kindNoRows         = "no_rows"
	kindTooManyRows    = "too_many_rows"
	kindAnswerTooLarge = "answer_too_large"
	kindBodyTooLarge   = "body_too_large"
	kindMediaType      = "media_type"
	kindUnknownModel   = "unknown_model"
	kindModelRequired  = "model_required"
	kindNoExplanation  = "no_explanation"
	kindNotFound       = "not_found"
	kindMethod         = "method_not_allowed"
	kindOverloaded     = "overloaded"
	kindShuttingDown   = "shutting_down"
	kindReload         = "reload_failed"
	kindInternal       = "internal"
	kindBodyRead       = "body_read"
	kindBadQuery       = "bad_query"
)

func errorf(status int, kind string, row int, field string, format string, a ...any) *Error {
	return &Error{Status: status, Kind: kind, Row: row, Field: field, Msg: fmt.Sprintf(format, a...)}
}

// rowErrorf is a 400 about row (1-based) and field.
func rowErrorf(kind string, row int, field string, format string, a ...any) *Error {
	msg := fmt.Sprintf(format, a...)
	where := ""
	switch {
	case row > 0 && field != "":
		where = fmt.Sprintf("row %d, field %s: ", row, quote.Name(field))
	case row > 0:
		where = fmt.Sprintf("row %d: ", row)
	case field != "":
		where = fmt.Sprintf("field %s: ", quote.Name(field))
	}
	return &Error{Status: http.StatusBadRequest, Kind: kind, Row: row, Field: field, Msg: where + msg}
}

// bodyError turns an error reading the body into a 413 when the body
// limit was hit, else into err (nil when it is not a read error).
func bodyError(err error, limit int64) *Error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return &Error{Status: http.StatusRequestEntityTooLarge, Kind: kindBodyTooLarge, Err: err,
			Msg: fmt.Sprintf("the request body is larger than the limit of %d bytes", limit)}
	}
	return nil
}
