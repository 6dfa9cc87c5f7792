package modelfile

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/aer-go/aer/dataset"

	"github.com/aer-go/aer/internal/atomicfile"
)

// Magic opens every model file.
const Magic = "AERMODEL"

// Version is the format version this package writes and reads.
const Version = 1

// maxHeader bounds the header length accepted when reading.
const maxHeader = 64 << 20

// Errors returned (wrapped) when a file cannot be read.
var (
	ErrNotModel  = errors.New("not an aer model file")
	ErrVersion   = errors.New("unsupported model file version")
	ErrTruncated = errors.New("model file is truncated")
	ErrChecksum  = errors.New("model file is corrupt (checksum mismatch)")
	ErrHeader    = errors.New("model file header is invalid")
	ErrSchema    = dataset.ErrSchema
)

// Header describes a saved model.
type Header struct {
	// Method names the method that fitted the model, e.g. "gbdt"; it
	// selects the payload decoder.
	Method string `json:"method"`
	// Schema is the data the model was fitted on.
	Schema dataset.Schema `json:"schema"`
	// Config is the fit configuration (method parameters, seed, ...), as
	// the program that fitted the model wrote it.
	Config json.RawMessage `json:"config,omitempty"`
	// Decision is the decision layer fitted on validation rows in front
	// of the model (a calibration and a threshold), as the program that
	// fitted it wrote it; empty when there is none.
	Decision json.RawMessage `json:"decision,omitempty"`
	// Producer names the program that wrote the file, e.g. "aer 0.1.0".
	Producer string `json:"producer,omitempty"`
	// Multiclass says how a multi-class model (Schema.Labels) holds its
	// classes: "native" (the method's own multi-class model,
	// learn.ClassFitter), "ovr" or "ovo" (binary models of the method,
	// package decompose). Empty for a binary model, whose header is
	// unchanged.
	Multiclass string `json:"multiclass,omitempty"`
	// OOD is the out-of-distribution density fitted beside a model that
	// has no score of its own (package density), as the program that
	// fitted it wrote it; empty when there is none (files written before
	// it existed, AER models, fits that switched it off).
	OOD json.RawMessage `json:"ood,omitempty"`
}

// Validate checks that the header is usable: a method and named,
// distinct features.
func (h *Header) Validate() error {
	if h.Method == "" {
		return fmt.Errorf("%w: no method", ErrHeader)
	}
	nf := len(h.Schema.Features)
	if nf == 0 {
		return fmt.Errorf("%w: no features", ErrHeader)
	}
	seen := make(map[string]bool, nf)
	for _, f := range h.Schema.Features {
		if seen[f] {
			return fmt.Errorf("%w: feature %q appears twice", ErrHeader, f)
		}
		seen[f] = true
	}
	return nil
}

// Encode writes a model file.
func Encode(w io.Writer, h *Header, payload []byte) error {
	if err := h.Validate(); err != nil {
		return err
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("modelfile: encoding header: %w", err)
	}
	if len(hb) > maxHeader {
		return fmt.Errorf("modelfile: header of %d bytes is too large", len(hb))
	}
	var buf bytes.Buffer
	buf.Grow(len(Magic) + 16 + len(hb) + len(payload) + sha256.Size)
	buf.WriteString(Magic)
	buf.Write(binary.LittleEndian.AppendUint32(nil, Version))
	buf.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(hb))))
	buf.Write(hb)
	buf.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(payload))))
	buf.Write(payload)
	sum := sha256.Sum256(buf.Bytes())
	buf.Write(sum[:])
	_, err = w.Write(buf.Bytes())
	return err
}

// Decode reads a model file and returns its header and payload.
func Decode(r io.Reader) (*Header, []byte, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, err
	}
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		if len(data) < len(Magic) && strings.HasPrefix(Magic, string(data)) && len(data) > 0 {
			return nil, nil, ErrTruncated
		}
		return nil, nil, ErrNotModel
	}
	rest := data[len(Magic):]
	if len(rest) < 8 {
		return nil, nil, ErrTruncated
	}
	if v := binary.LittleEndian.Uint32(rest); v != Version {
		return nil, nil, fmt.Errorf("%w %d (this build reads version %d)", ErrVersion, v, Version)
	}
	hlen := uint64(binary.LittleEndian.Uint32(rest[4:]))
	rest = rest[8:]
	if hlen > maxHeader {
		return nil, nil, fmt.Errorf("%w: header length %d", ErrHeader, hlen)
	}
	if uint64(len(rest)) < hlen+8 {
		return nil, nil, ErrTruncated
	}
	hb := rest[:hlen]
	rest = rest[hlen:]
	plen := binary.LittleEndian.Uint64(rest)
	rest = rest[8:]
	if plen > uint64(len(rest)) || uint64(len(rest))-plen < sha256.Size {
		return nil, nil, ErrTruncated
	}
	if uint64(len(rest))-plen > sha256.Size {
		return nil, nil, fmt.Errorf("%w: %d unexpected bytes after the checksum", ErrChecksum, uint64(len(rest))-plen-sha256.Size)
	}
	payload := rest[:plen]
	body := data[:len(data)-sha256.Size]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], data[len(data)-sha256.Size:]) {
		return nil, nil, ErrChecksum
	}
	var h Header
	dec := json.NewDecoder(bytes.NewReader(hb))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrHeader, err)
	}
	if err := h.Validate(); err != nil {
		return nil, nil, err
	}
	return &h, payload, nil
}

// Save writes a model file at path atomically: on failure nothing is left
// behind.
func Save(path string, h *Header, payload []byte) error {
	return SaveContext(context.Background(), path, h, payload)
}

// SaveContext is Save that gives up, leaving nothing behind, when ctx is
// done before the file is complete.
func SaveContext(ctx context.Context, path string, h *Header, payload []byte) error {
	if err := atomicfile.WriteContext(ctx, path, func(w io.Writer) error { return Encode(w, h, payload) }); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Load reads the model file at path; errors name the file.
func Load(path string) (*Header, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	h, p, err := Decode(f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, p, nil
}
