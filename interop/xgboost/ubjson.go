package xgboost

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/aer-go/aer/internal/quote"
)

// ubjDecoder decodes Universal Binary JSON (ubjson.org, draft 12), the
// binary format of XGBoost's .ubj models: a marker byte per value,
// big-endian numbers, strings and object keys prefixed by their length,
// and containers optionally "optimized" with an element type ('$') and a
// count ('#'). XGBoost writes its float and integer arrays as typed
// arrays, which decode to []float64 like JSON arrays of numbers.
//
// Every length and count is checked against the bytes left before
// anything is allocated for it: each element takes at least one byte
// (a typed number its size), so a hostile header cannot ask for more
// memory than a fixed multiple of the file's size. (Go has no
// maintained UBJSON library; this is the subset of the format a model
// can hold, which is all of it but the high-precision numbers' arbitrary
// precision: they are read as float64.)
type ubjDecoder struct {
	data  []byte
	pos   int
	depth int
	mem   budget
}

// decodeUBJSON decodes one UBJSON value that must fill data.
func decodeUBJSON(data []byte) (any, error) {
	d := &ubjDecoder{data: data, mem: newBudget(len(data))}
	m, err := d.marker()
	if err != nil {
		return nil, err
	}
	v, err := d.value(m)
	if err != nil {
		return nil, err
	}
	for d.pos < len(d.data) && d.data[d.pos] == 'N' {
		d.pos++
	}
	if d.pos < len(d.data) {
		return nil, d.errorf(d.pos, "%d bytes after the document", len(d.data)-d.pos)
	}
	return v, nil
}

func (d *ubjDecoder) errorf(at int, format string, args ...any) error {
	return fmt.Errorf("%w: UBJSON at byte %d: %s", ErrFormat, at, fmt.Sprintf(format, args...))
}

func (d *ubjDecoder) truncated(what string) error {
	return d.errorf(d.pos, "the file ends inside %s (truncated?)", what)
}

// take returns the next n bytes.
func (d *ubjDecoder) take(n int, what string) ([]byte, error) {
	if n < 0 || n > len(d.data)-d.pos {
		return nil, d.truncated(what)
	}
	b := d.data[d.pos : d.pos+n]
	d.pos += n
	return b, nil
}

// marker returns the next marker, skipping no-ops.
func (d *ubjDecoder) marker() (byte, error) {
	for d.pos < len(d.data) && d.data[d.pos] == 'N' {
		d.pos++
	}
	if d.pos >= len(d.data) {
		return 0, d.truncated("a value")
	}
	d.pos++
	return d.data[d.pos-1], nil
}

// numSize is the size of the numeric types' payloads.
func numSize(m byte) int {
	switch m {
	case 'i', 'U':
		return 1
	case 'I':
		return 2
	case 'l', 'd':
		return 4
	case 'L', 'D':
		return 8
	}
	return 0
}

// number reads the payload of numeric marker m.
func (d *ubjDecoder) number(m byte) (float64, error) {
	b, err := d.take(numSize(m), "a number")
	if err != nil {
		return 0, err
	}
	switch m {
	case 'i':
		return float64(int8(b[0])), nil
	case 'U':
		return float64(b[0]), nil
	case 'I':
		return float64(int16(binary.BigEndian.Uint16(b))), nil
	case 'l':
		return float64(int32(binary.BigEndian.Uint32(b))), nil
	case 'L':
		return float64(int64(binary.BigEndian.Uint64(b))), nil
	case 'd':
		return float64(math.Float32frombits(binary.BigEndian.Uint32(b))), nil
	default: // 'D'
		return math.Float64frombits(binary.BigEndian.Uint64(b)), nil
	}
}

// length reads a length or count: an integer marker and its value, at
// least 0 and at most the bytes left divided by per, the fewest bytes
// each unit takes.
func (d *ubjDecoder) length(what string, per int) (int, error) {
	at := d.pos
	m, err := d.marker()
	if err != nil {
		return 0, err
	}
	switch m {
	case 'i', 'U', 'I', 'l', 'L':
	default:
		return 0, d.errorf(at, "%s: marker %s is not an integer type", what, showMarker(m))
	}
	v, err := d.number(m)
	if err != nil {
		return 0, err
	}
	if left := len(d.data) - d.pos; v < 0 || v > float64(left/per) {
		return 0, d.errorf(at, "%s of %.0f: the file has %d bytes left (corrupt or truncated)", what, v, left)
	}
	return int(v), nil
}

func showMarker(m byte) string {
	if m >= 0x20 && m < 0x7f {
		return strconv.QuoteRune(rune(m))
	}
	return fmt.Sprintf("0x%02x", m)
}

// str reads a string's length and bytes.
func (d *ubjDecoder) str(what string) (string, error) {
	n, err := d.length(what+" length", 1)
	if err != nil {
		return "", err
	}
	at := d.pos
	b, err := d.take(n, what)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", d.errorf(at, "%s is not valid UTF-8", what)
	}
	return string(b), nil
}

// value reads the value of marker m, whose byte is just before pos.
func (d *ubjDecoder) value(m byte) (any, error) {
	at := d.pos - 1
	switch m {
	case 'Z':
		return nil, nil
	case 'T':
		return true, nil
	case 'F':
		return false, nil
	case 'i', 'U', 'I', 'l', 'L', 'd', 'D':
		return d.number(m)
	case 'H':
		s, err := d.str("a high-precision number")
		if err != nil {
			return nil, err
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil && !isRange(err) {
			return nil, d.errorf(at, "high-precision number %s is malformed", quote.Name(s))
		}
		return v, nil
	case 'C':
		b, err := d.take(1, "a char")
		if err != nil {
			return nil, err
		}
		if b[0] >= utf8.RuneSelf {
			return nil, d.errorf(at, "char 0x%02x is not ASCII", b[0])
		}
		return string(b), nil
	case 'S':
		return d.str("a string")
	case '[':
		return d.container(false)
	case '{':
		return d.container(true)
	}
	return nil, d.errorf(at, "unknown marker %s", showMarker(m))
}

// header reads a container's optional type and count: typ is 0 and n -1
// when absent.
func (d *ubjDecoder) header(what string) (typ byte, n int, err error) {
	n = -1
	if d.pos < len(d.data) && d.data[d.pos] == '$' {
		d.pos++
		at := d.pos
		if typ, err = d.marker(); err != nil {
			return 0, 0, err
		}
		switch typ {
		case 'Z', 'T', 'F', 'i', 'U', 'I', 'l', 'L', 'd', 'D', 'H', 'C', 'S', '[', '{':
		default:
			return 0, 0, d.errorf(at, "%s of unknown type %s", what, showMarker(typ))
		}
		if d.pos >= len(d.data) || d.data[d.pos] != '#' {
			return 0, 0, d.errorf(d.pos, "%s has a type but no count", what)
		}
	}
	if d.pos < len(d.data) && d.data[d.pos] == '#' {
		d.pos++
		// Each element takes a byte at least (a typed number its size,
		// an object's entry a key length and a value); null and boolean
		// elements of a typed array take none, but one byte each is
		// still the bound (and the budget charges them).
		if n, err = d.length(what+" count", max(1, numSize(typ))); err != nil {
			return 0, 0, err
		}
	}
	return typ, n, nil
}

// container reads an array or object after its opening marker.
func (d *ubjDecoder) container(object bool) (any, error) {
	what := "an array"
	if object {
		what = "an object"
	}
	if d.depth++; d.depth > maxDepth {
		return nil, d.errorf(d.pos-1, "nested more than %d deep", maxDepth)
	}
	defer func() { d.depth-- }()
	typ, n, err := d.header(what)
	if err != nil {
		return nil, err
	}
	// A typed array of numbers: one read, no markers.
	if !object && numSize(typ) > 0 {
		if !d.mem.charge(8 * n) {
			return nil, d.errorf(d.pos, overBudget)
		}
		out := make([]float64, n)
		for i := range out {
			if out[i], err = d.number(typ); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	var obj map[string]any
	var nums []float64
	var mixed []any
	if object {
		obj = map[string]any{}
	} else {
		nums = []float64{}
	}
	for i := 0; n < 0 || i < n; i++ {
		if n < 0 {
			for d.pos < len(d.data) && d.data[d.pos] == 'N' {
				d.pos++
			}
			if d.pos >= len(d.data) {
				return nil, d.truncated(what)
			}
			if c := d.data[d.pos]; (object && c == '}') || (!object && c == ']') {
				d.pos++
				break
			}
		}
		var key string
		keyAt := d.pos
		if object {
			if key, err = d.str("a key"); err != nil {
				return nil, err
			}
			if _, dup := obj[key]; dup {
				return nil, d.errorf(keyAt, "key %s appears twice in an object", quote.Name(key))
			}
		}
		m := typ
		if m == 0 {
			if m, err = d.marker(); err != nil {
				return nil, err
			}
		}
		v, err := d.value(m)
		if err != nil {
			return nil, err
		}
		if !d.mem.charge(48 + len(key) + cost(v)) {
			return nil, d.errorf(keyAt, overBudget)
		}
		switch {
		case object:
			obj[key] = v
		case mixed == nil:
			if x, ok := v.(float64); ok {
				nums = append(nums, x)
				continue
			}
			mixed = make([]any, len(nums), len(nums)+1)
			for i, x := range nums {
				mixed[i] = x
			}
			mixed = append(mixed, v)
		default:
			mixed = append(mixed, v)
		}
	}
	switch {
	case object:
		return obj, nil
	case mixed != nil:
		return mixed, nil
	}
	return nums, nil
}
