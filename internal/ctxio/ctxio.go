package ctxio

import (
	"context"
	"io"
	"os"
	"sync/atomic"
)

// File is an *os.File whose Read and ReadAt fail with ctx's error once
// ctx is done.
type File struct {
	*os.File
	ctx context.Context
	// Progress, when not nil, is told after every Read and ReadAt the
	// bytes read so far (a file read twice counts twice).
	Progress func(read int64)
	read     atomic.Int64
}

// NewFile wraps f.
func NewFile(ctx context.Context, f *os.File) *File { return &File{File: f, ctx: ctx} }

// Read reads from the file unless ctx is done.
func (f *File) Read(p []byte) (int, error) {
	if err := f.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := f.File.Read(p)
	f.count(n)
	return n, err
}

// count adds n bytes read and tells Progress.
func (f *File) count(n int) {
	if f.Progress != nil && n > 0 {
		f.Progress(f.read.Add(int64(n)))
	}
}

// ReadAt reads at off unless ctx is done.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if err := f.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := f.File.ReadAt(p, off)
	f.count(n)
	return n, err
}

// Reader is an io.Reader whose reads fail with ctx's error once ctx is
// done.
type Reader struct {
	r   io.Reader
	ctx context.Context
	// Progress, when not nil, is told after every Read the bytes read so
	// far.
	Progress func(read int64)
	read     int64
}

// NewReader wraps r.
func NewReader(ctx context.Context, r io.Reader) *Reader { return &Reader{r: r, ctx: ctx} }

// Read reads from the reader unless ctx is done.
func (r *Reader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := r.r.Read(p)
	if r.Progress != nil && n > 0 {
		r.read += int64(n)
		r.Progress(r.read)
	}
	return n, err
}
