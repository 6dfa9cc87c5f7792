//go:build unix

package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNamedPipe: a FIFO at the path is written through, not replaced by
// a regular file (as /dev/null was, by a rename over it).
func TestNamedPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	regular := filepath.Join(dir, "b.csv")
	err := WriteAll([]string{regular, fifo}, []func(io.Writer) error{
		func(w io.Writer) error { _, err := io.WriteString(w, "b\n"); return err },
		func(w io.Writer) error { _, err := io.WriteString(w, "a,b\n1,2\n"); return err },
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "a,b\n1,2\n" {
			t.Errorf("the pipe's reader got %q", s)
		}
	case <-time.After(10 * time.Second):
		// Nothing came through the pipe: unblock its reader.
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Error("nothing was written through the named pipe")
	}
	fi, err := os.Lstat(fifo)
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the named pipe was replaced: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(regular); string(b) != "b\n" {
		t.Errorf("the regular file holds %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestDirectoryInTheWay: when a later destination is a directory, no
// earlier file of the set is replaced and nothing is left behind.
func TestDirectoryInTheWay(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "x.train.csv")
	if err := os.WriteFile(a, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(dir, "x.test.csv")
	if err := os.Mkdir(b, 0o755); err != nil {
		t.Fatal(err)
	}
	w := func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }
	err := WriteAll([]string{a, b}, []func(io.Writer) error{w, w})
	if err == nil || !strings.Contains(err.Error(), "x.test.csv: is a directory") {
		t.Fatalf("error %v", err)
	}
	if got, _ := os.ReadFile(a); string(got) != "old\n" {
		t.Errorf("the first file was replaced: %q", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("left behind: %v", ents)
	}
}
