package ctxio

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStopsWithContext(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("abcdef"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cf := NewFile(ctx, f)
	r := NewReader(ctx, strings.NewReader("xyz"))
	b := make([]byte, 3)
	if n, err := cf.Read(b); n != 3 || err != nil || string(b) != "abc" {
		t.Fatalf("read %d %v", n, err)
	}
	if n, err := r.Read(b); n != 3 || err != nil {
		t.Fatalf("reader %d %v", n, err)
	}
	cancel()
	if _, err := cf.Read(b); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v", err)
	}
	if _, err := cf.ReadAt(b, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("read at after cancel: %v", err)
	}
	if _, err := io.ReadAll(r); !errors.Is(err, context.Canceled) {
		t.Errorf("reader after cancel: %v", err)
	}
	if fi, err := cf.Stat(); err != nil || fi.Size() != 6 {
		t.Errorf("stat %v %v", fi, err)
	}
}
