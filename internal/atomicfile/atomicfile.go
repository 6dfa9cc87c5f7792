package atomicfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Write creates path by calling write on a buffered temporary file in the
// same directory and renaming it over path once write and the flush, sync
// and close all succeeded. On any error the temporary file is removed and
// path is left untouched. The path "-" writes to standard output instead.
//
// The file gets the mode of the file it replaces, else 0666 less the
// process's umask (as a shell redirection would); a symbolic link at path
// is followed, so the file it points to is replaced and the link stays.
// A path that names a device, a named pipe or a socket (/dev/null,
// /dev/stdout, a FIFO) is written in place, never replaced; a directory
// is an error.
// After the rename the directory is synced, so the new name survives a
// crash.
func Write(path string, write func(io.Writer) error) error {
	return WriteContext(context.Background(), path, write)
}

// WriteContext is Write that stops when ctx is done (Ctrl-C): the write
// fails with ctx's error at its next buffer flush, the temporary file is
// removed and path is left untouched. Once the file is complete, a
// cancellation no longer stops the rename.
func WriteContext(ctx context.Context, path string, write func(io.Writer) error) error {
	if path == "-" {
		bw := bufio.NewWriter(ctxWriter{ctx, os.Stdout})
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	return WriteAllContext(ctx, []string{path}, []func(io.Writer) error{write})
}

// ctxWriter fails every write once ctx is done.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// WriteAll writes several files as one: every destination is checked
// first (a directory in the way fails before anything is written), every
// file is written to its temporary, and only when all of them are
// complete are they renamed into place. If any write fails, every
// temporary is removed and no path is touched. Devices and pipes among
// the paths are written in place after the temporaries are complete and
// before the renames.
func WriteAll(paths []string, writes []func(io.Writer) error) error {
	return WriteAllContext(context.Background(), paths, writes)
}

// WriteAllContext is WriteAll that stops when ctx is done: no temporary
// file is left and no path is touched, unless every file was complete
// before ctx was done, in which case all of them are renamed into place
// (never a part of the set).
func WriteAllContext(ctx context.Context, paths []string, writes []func(io.Writer) error) (err error) {
	if len(paths) != len(writes) {
		return fmt.Errorf("atomicfile: %d paths for %d writers", len(paths), len(writes))
	}
	targets := make([]string, len(paths))
	inPlace := make([]bool, len(paths))
	temps := make([]string, len(paths))
	defer func() {
		if err != nil {
			for _, t := range temps {
				if t != "" {
					os.Remove(t)
				}
			}
		}
	}()
	// Every destination is checked before anything is written, so that
	// none is replaced when a later one cannot be.
	for i, path := range paths {
		if targets[i], err = resolve(path); err != nil {
			return err
		}
		if inPlace[i], err = special(targets[i], path); err != nil {
			return err
		}
	}
	for i, path := range paths {
		if inPlace[i] {
			continue
		}
		tmp, err := writeTemp(ctx, targets[i], path, writes[i])
		temps[i] = tmp
		if err != nil {
			return err
		}
	}
	if err = ctx.Err(); err != nil {
		return err
	}
	// Devices and pipes take their bytes in place, once every regular
	// file is complete: a rename would replace the device node itself
	// (/dev/null) with a regular file.
	for i, path := range paths {
		if inPlace[i] {
			if err = writeInPlace(ctx, targets[i], path, writes[i]); err != nil {
				return err
			}
		}
	}
	for i, tmp := range temps {
		if tmp == "" {
			continue
		}
		if err = os.Rename(tmp, targets[i]); err != nil {
			return fmt.Errorf("rename into %s: %w", paths[i], err)
		}
		syncDir(filepath.Dir(targets[i]))
	}
	return nil
}

// special reports whether target exists and is not a regular file (a
// device, a named pipe or a socket: written in place); a directory is an
// error. name is the path as the user gave it.
func special(target, name string) (bool, error) {
	fi, err := os.Stat(target)
	switch {
	case err != nil:
		return false, nil // not there yet (or unreadable: the write says why)
	case fi.IsDir():
		return false, fmt.Errorf("write %s: is a directory", name)
	}
	return !fi.Mode().IsRegular(), nil
}

// writeInPlace writes to an existing device or pipe through its own
// name.
func writeInPlace(ctx context.Context, target, name string, write func(io.Writer) error) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("open %s: %w", name, err)
	}
	bw := bufio.NewWriterSize(ctxWriter{ctx, f}, 1<<16)
	if err := write(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", name, err)
	}
	return nil
}

// resolve follows a symbolic link at path to the file it names (which
// may not exist yet).
func resolve(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	target, err := os.Readlink(path)
	if err != nil {
		return "", fmt.Errorf("reading the link %s: %w", path, err)
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	return resolve(target)
}

// writeTemp writes a temporary file beside target and returns its name
// (set once it exists, so the caller can remove it) and the first error.
// name is the path as the user gave it, for messages.
func writeTemp(ctx context.Context, target, name string, write func(io.Writer) error) (tmp string, err error) {
	dir := filepath.Dir(target)
	var f *os.File
	for range 100 {
		tmp = filepath.Join(dir, "."+filepath.Base(target)+".tmp"+strconv.FormatUint(rand.Uint64()%1e9, 10))
		// 0666 less the umask, as the kernel applies it.
		f, err = os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", fmt.Errorf("create %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	bw := bufio.NewWriterSize(ctxWriter{ctx, f}, 1<<16)
	if err = write(bw); err != nil {
		return tmp, err
	}
	if err = bw.Flush(); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return tmp, cerr
		}
		return tmp, fmt.Errorf("write %s: %w", name, err)
	}
	if fi, serr := os.Stat(target); serr == nil {
		// Keep the mode of the file replaced (a private model stays
		// private).
		if err = f.Chmod(fi.Mode().Perm()); err != nil {
			return tmp, fmt.Errorf("chmod %s: %w", name, err)
		}
	}
	if err = f.Sync(); err != nil {
		return tmp, fmt.Errorf("sync %s: %w", name, err)
	}
	if err = f.Close(); err != nil {
		return tmp, fmt.Errorf("close %s: %w", name, err)
	}
	return tmp, nil
}

// syncDir flushes a directory's entries to disk where the system allows
// it (errors are ignored: some systems cannot sync a directory).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
