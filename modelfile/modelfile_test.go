package modelfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
)

func testHeader() *Header {
	return &Header{
		Method:   "gbdt",
		Schema:   dataset.Schema{Features: []string{"a", "b", "c"}, Label: "class", Classes: []string{"neg", "pos"}, Weight: "w"},
		Config:   []byte(`{"eta":0.3}`),
		Producer: "test",
	}
}

func encode(t *testing.T) []byte {
	var buf bytes.Buffer
	if err := Encode(&buf, testHeader(), []byte("payload bytes")); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.aer")
	h := testHeader()
	if err := Save(path, h, []byte("payload bytes")); err != nil {
		t.Fatal(err)
	}
	got, payload, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(payload) != "payload bytes" || got.Method != "gbdt" || got.Schema.Classes[1] != "pos" || got.Schema.Weight != h.Schema.Weight || string(got.Config) != `{"eta":0.3}` {
		t.Errorf("got %+v, payload %q", got, payload)
	}
}

func TestVersion(t *testing.T) {
	b := encode(t)
	binary.LittleEndian.PutUint32(b[len(Magic):], Version+1)
	_, _, err := Decode(bytes.NewReader(b))
	if !errors.Is(err, ErrVersion) || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("other version: %v", err)
	}
}

func TestTruncated(t *testing.T) {
	b := encode(t)
	for n := 1; n < len(b); n++ {
		_, _, err := Decode(bytes.NewReader(b[:n]))
		if !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrChecksum) {
			t.Fatalf("first %d of %d bytes: %v, want a truncation error", n, len(b), err)
		}
	}
	if _, _, err := Decode(bytes.NewReader(nil)); !errors.Is(err, ErrNotModel) {
		t.Errorf("empty file: %v", err)
	}
}

func TestAltered(t *testing.T) {
	b := encode(t)
	for i := range b {
		c := bytes.Clone(b)
		c[i] ^= 0x20
		if _, _, err := Decode(bytes.NewReader(c)); err == nil {
			t.Fatalf("byte %d altered: accepted", i)
		}
	}
	c := bytes.Clone(b)
	c[len(c)-40] ^= 1 // inside the payload
	if _, _, err := Decode(bytes.NewReader(c)); !errors.Is(err, ErrChecksum) {
		t.Errorf("payload altered: %v", err)
	}
	if _, _, err := Decode(strings.NewReader("label,score\n1,0.5\n")); !errors.Is(err, ErrNotModel) {
		t.Errorf("CSV file: %v", err)
	}
	path := filepath.Join(t.TempDir(), "x.aer")
	os.WriteFile(path, b[:20], 0o644)
	if _, _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Load error does not name the file: %v", err)
	}
}

func TestColumns(t *testing.T) {
	s := testHeader().Schema
	idx, err := s.Columns([]string{"c", "a", "b"})
	if err != nil || idx[0] != 1 || idx[1] != 2 || idx[2] != 0 {
		t.Errorf("reordered: %v %v", idx, err)
	}
	_, err = s.Columns([]string{"a", "x", "c", "y"})
	if !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), `missing "b"`) || !strings.Contains(err.Error(), `unexpected "x", "y"`) {
		t.Errorf("mismatch: %v", err)
	}
}

func TestValidate(t *testing.T) {
	for name, mod := range map[string]func(h *Header){
		"no method":   func(h *Header) { h.Method = "" },
		"no features": func(h *Header) { h.Schema.Features = nil },
		"duplicate":   func(h *Header) { h.Schema.Features[1] = "a" },
	} {
		h := testHeader()
		mod(h)
		if err := Encode(&bytes.Buffer{}, h, nil); !errors.Is(err, ErrHeader) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	var buf bytes.Buffer
	Encode(&buf, testHeader(), []byte("p"))
	f.Add(buf.Bytes())
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, _, err := Decode(bytes.NewReader(b))
		if err == nil && h.Validate() != nil {
			t.Error("decoded an invalid header")
		}
	})
}
