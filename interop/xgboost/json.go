package xgboost

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/aer-go/aer/internal/quote"
)

// maxDepth bounds the nesting of arrays and objects in a model file
// (XGBoost's models nest about six deep), so that a hostile file cannot
// exhaust the stack.
const maxDepth = 64

// A decoded document is made of these values: map[string]any (an
// object), []float64 (an array of numbers only), []any (any other
// array), float64, string, bool and nil. Both formats decode to them, so
// that one reader (model.go) takes either.

// jsonDecoder decodes XGBoost's JSON: standard JSON plus the tokens NaN,
// Infinity and -Infinity that XGBoost writes for such floats (a
// categorical split's split_conditions is NaN). A number written with a
// fraction or an exponent is read as XGBoost reads it, into a float32
// (every float of an XGBoost model is one); an integer exactly.
type jsonDecoder struct {
	data  []byte
	pos   int
	depth int
	mem   budget
}

// decodeJSON decodes one JSON document that must fill data (trailing
// white space allowed).
func decodeJSON(data []byte) (any, error) {
	d := &jsonDecoder{data: data, mem: newBudget(len(data))}
	v, err := d.value()
	if err != nil {
		return nil, err
	}
	d.space()
	if d.pos < len(d.data) {
		return nil, d.errorf("unexpected %s after the document", d.show())
	}
	return v, nil
}

// errorf returns an error located at the decoder's position: byte offset,
// line and column.
func (d *jsonDecoder) errorf(format string, args ...any) error {
	line, col := 1, 1
	for _, c := range d.data[:min(d.pos, len(d.data))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Errorf("%w: JSON at byte %d (line %d, column %d): %s", ErrFormat, d.pos, line, col, fmt.Sprintf(format, args...))
}

// show describes the byte at the position, for errors.
func (d *jsonDecoder) show() string {
	if d.pos >= len(d.data) {
		return "end of file"
	}
	c := d.data[d.pos]
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (d *jsonDecoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *jsonDecoder) value() (any, error) {
	d.space()
	if d.pos >= len(d.data) {
		return nil, d.errorf("unexpected end of file (truncated?)")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		return d.string()
	case c == '-' || (c >= '0' && c <= '9') || c == 'N' || c == 'I':
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	}
	return nil, d.errorf("unexpected %s where a value should be", d.show())
}

func (d *jsonDecoder) literal(word string) error {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return d.errorf("unexpected %s (want %s)", d.show(), word)
	}
	d.pos += len(word)
	return nil
}

func (d *jsonDecoder) enter() error {
	if d.depth++; d.depth > maxDepth {
		return d.errorf("nested more than %d deep", maxDepth)
	}
	return nil
}

func (d *jsonDecoder) object() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	d.pos++ // {
	obj := map[string]any{}
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		d.depth--
		return obj, nil
	}
	for {
		d.space()
		if d.pos >= len(d.data) {
			return nil, d.errorf("unexpected end of file in an object (truncated?)")
		}
		if d.data[d.pos] != '"' {
			return nil, d.errorf("unexpected %s where a key should be", d.show())
		}
		at := d.pos
		k, err := d.string()
		if err != nil {
			return nil, err
		}
		if _, dup := obj[k]; dup {
			d.pos = at
			return nil, d.errorf("key %s appears twice in an object", quote.Name(k))
		}
		if !d.mem.charge(48 + len(k)) {
			return nil, d.errorf(overBudget)
		}
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.errorf("unexpected %s after a key (want ':')", d.show())
		}
		d.pos++
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		obj[k] = v
		if !d.mem.charge(cost(v)) {
			return nil, d.errorf(overBudget)
		}
		d.space()
		if d.pos >= len(d.data) {
			return nil, d.errorf("unexpected end of file in an object (truncated?)")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			d.depth--
			return obj, nil
		default:
			return nil, d.errorf("unexpected %s in an object (want ',' or '}')", d.show())
		}
	}
}

func (d *jsonDecoder) array() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	d.pos++ // [
	nums := []float64{}
	var mixed []any // set at the first element that is not a number
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		d.depth--
		return nums, nil
	}
	for {
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		if !d.mem.charge(16 + cost(v)) {
			return nil, d.errorf(overBudget)
		}
		if x, ok := v.(float64); ok && mixed == nil {
			nums = append(nums, x)
		} else {
			if mixed == nil {
				mixed = make([]any, len(nums), len(nums)+1)
				for i, x := range nums {
					mixed[i] = x
				}
				nums = nil
			}
			mixed = append(mixed, v)
		}
		d.space()
		if d.pos >= len(d.data) {
			return nil, d.errorf("unexpected end of file in an array (truncated?)")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			d.depth--
			if mixed != nil {
				return mixed, nil
			}
			return nums, nil
		default:
			return nil, d.errorf("unexpected %s in an array (want ',' or ']')", d.show())
		}
	}
}

func (d *jsonDecoder) string() (string, error) {
	start := d.pos
	d.pos++ // "
	var buf []byte
	for {
		if d.pos >= len(d.data) {
			d.pos = start
			return "", d.errorf("string never closed (truncated?)")
		}
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			if buf == nil {
				return string(d.data[start+1 : d.pos-1]), nil
			}
			return string(buf), nil
		case c < 0x20:
			return "", d.errorf("control character 0x%02x in a string", c)
		case c == '\\':
			if buf == nil {
				buf = append([]byte(nil), d.data[start+1:d.pos]...)
			}
			if d.pos+1 >= len(d.data) {
				return "", d.errorf("string never closed (truncated?)")
			}
			e := d.data[d.pos+1]
			d.pos += 2
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, err := d.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
						d.pos += 2
						if r2, err = d.hex4(); err != nil {
							return "", err
						}
					}
					r = utf16.DecodeRune(r, r2)
				}
				buf = utf8.AppendRune(buf, r)
			default:
				d.pos--
				return "", d.errorf("unknown escape \\%c in a string", e)
			}
		default:
			if c >= utf8.RuneSelf {
				r, n := utf8.DecodeRune(d.data[d.pos:])
				if r == utf8.RuneError && n <= 1 {
					return "", d.errorf("invalid UTF-8 in a string")
				}
				if buf != nil {
					buf = append(buf, d.data[d.pos:d.pos+n]...)
				}
				d.pos += n
				continue
			}
			if buf != nil {
				buf = append(buf, c)
			}
			d.pos++
		}
	}
}

func (d *jsonDecoder) hex4() (rune, error) {
	if len(d.data)-d.pos < 4 {
		return 0, d.errorf("\\u escape cut short")
	}
	v, err := strconv.ParseUint(string(d.data[d.pos:d.pos+4]), 16, 16)
	if err != nil {
		return 0, d.errorf("bad \\u escape %q", d.data[d.pos:d.pos+4])
	}
	d.pos += 4
	return rune(v), nil
}

// number reads a JSON number, NaN, Infinity or -Infinity.
func (d *jsonDecoder) number() (any, error) {
	start := d.pos
	for _, w := range []struct {
		word string
		v    float64
	}{{"NaN", math.NaN()}, {"Infinity", math.Inf(1)}, {"-Infinity", math.Inf(-1)}} {
		if len(d.data)-d.pos >= len(w.word) && string(d.data[d.pos:d.pos+len(w.word)]) == w.word {
			d.pos += len(w.word)
			return w.v, nil
		}
	}
	isInt := true
	if d.pos < len(d.data) && d.data[d.pos] == '-' {
		d.pos++
	}
	digits := func() int {
		n := 0
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	intStart := d.pos
	if n := digits(); n == 0 || (n > 1 && d.data[intStart] == '0') {
		d.pos = start
		return nil, d.errorf("malformed number")
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		isInt = false
		if digits() == 0 {
			d.pos = start
			return nil, d.errorf("malformed number")
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		isInt = false
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if digits() == 0 {
			d.pos = start
			return nil, d.errorf("malformed number")
		}
	}
	text := string(d.data[start:d.pos])
	if isInt {
		if v, err := strconv.ParseInt(text, 10, 64); err == nil {
			return float64(v), nil
		}
		// Larger than int64: no count or index of a model, so its
		// value only needs to be out of range.
		v, _ := strconv.ParseFloat(text, 64)
		return v, nil
	}
	v, err := strconv.ParseFloat(text, 32)
	if err != nil && !isRange(err) {
		d.pos = start
		return nil, d.errorf("malformed number %s", quote.Name(text))
	}
	return float64(float32(v)), nil
}

// isRange tells whether err is strconv's out-of-range error (the value
// then is ±Inf or 0, as a float32 holds it).
func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
