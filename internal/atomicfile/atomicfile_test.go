package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "a,b\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "a,b\n" {
		t.Errorf("content %q", b)
	}
	// A failing writer leaves the old file and no temporary behind.
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error { io.WriteString(w, "partial"); return boom })
	if !errors.Is(err, boom) {
		t.Errorf("error %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "a,b\n" {
		t.Errorf("failed write changed the file: %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("directory holds %d entries, want 1", len(ents))
	}
	// A new file that fails is never created.
	if err := Write(filepath.Join(dir, "new.csv"), func(io.Writer) error { return boom }); err == nil {
		t.Error("no error")
	}
	if _, err := os.Stat(filepath.Join(dir, "new.csv")); err == nil {
		t.Error("failed write created the file")
	}
	if err := Write(filepath.Join(dir, "no", "such", "dir.csv"), func(io.Writer) error { return nil }); err == nil {
		t.Error("write into a missing directory succeeded")
	}
}
