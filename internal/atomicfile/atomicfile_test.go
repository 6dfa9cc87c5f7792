package atomicfile

import (
	"context"
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

func TestModesAndLinks(t *testing.T) {
	dir := t.TempDir()
	w := func(s string) func(io.Writer) error {
		return func(out io.Writer) error { _, err := io.WriteString(out, s); return err }
	}
	// A new file gets 0666 less the umask; an existing one keeps its mode.
	private := filepath.Join(dir, "private.aer")
	if err := os.WriteFile(private, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(private, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(private, w("new")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(private); fi.Mode().Perm() != 0o600 {
		t.Errorf("replaced 0600 file has mode %v", fi.Mode().Perm())
	}
	// A symbolic link is followed: the target is replaced, the link stays.
	target := filepath.Join(dir, "target.csv")
	link := filepath.Join(dir, "link.csv")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.csv", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := Write(link, w("new")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("target holds %q", b)
	}
}

func TestWriteAll(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	boom := errors.New("boom")
	err := WriteAll([]string{a, b}, []func(io.Writer) error{
		func(w io.Writer) error { _, err := io.WriteString(w, "new a"); return err },
		func(io.Writer) error { return boom },
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v", err)
	}
	// The second part failed: the first is not replaced, nothing is left.
	for _, p := range []string{a, b} {
		if got, _ := os.ReadFile(p); string(got) != "old" {
			t.Errorf("%s: %q after a failed set", filepath.Base(p), got)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("%d entries left", len(ents))
	}
}

// TestWriteContextCancelled cancels the context in the middle of a write
// larger than the buffer, as Ctrl-C would: the write fails with the
// context's error, the old file stays and no temporary is left.
func TestWriteContextCancelled(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.aer")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	chunk := make([]byte, 1<<12)
	err := WriteContext(ctx, path, func(w io.Writer) error {
		for i := range 1 << 10 { // 4 MB, many buffer flushes
			if i == 100 {
				cancel()
			}
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("cancelled write changed the file: %d bytes", len(b))
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("directory holds %d entries, want 1 (a temporary was left)", len(ents))
	}

	// A set cancelled after its first file is complete touches no path.
	ctx, cancel = context.WithCancel(context.Background())
	paths := []string{filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")}
	err = WriteAllContext(ctx, paths, []func(io.Writer) error{
		func(w io.Writer) error { _, err := io.WriteString(w, "a"); return err },
		func(w io.Writer) error { cancel(); _, err := io.WriteString(w, "b"); return err },
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("set: error %v, want context.Canceled", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("set: directory holds %d entries, want 1", len(ents))
	}

	// A context done before the write starts writes nothing.
	if err := WriteContext(ctx, filepath.Join(dir, "late.csv"), func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); !errors.Is(err, context.Canceled) {
		t.Errorf("done context: error %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("done context: directory holds %d entries, want 1", len(ents))
	}
}
