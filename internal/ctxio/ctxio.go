package ctxio

import (
	"context"
	"io"
	"os"
)

// File is an *os.File whose Read and ReadAt fail with ctx's error once
// ctx is done.
type File struct {
	*os.File
	ctx context.Context
}

// NewFile wraps f.
func NewFile(ctx context.Context, f *os.File) *File { return &File{File: f, ctx: ctx} }

// Read reads from the file unless ctx is done.
func (f *File) Read(p []byte) (int, error) {
	if err := f.ctx.Err(); err != nil {
		return 0, err
	}
	return f.File.Read(p)
}

// ReadAt reads at off unless ctx is done.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if err := f.ctx.Err(); err != nil {
		return 0, err
	}
	return f.File.ReadAt(p, off)
}

// Reader is an io.Reader whose reads fail with ctx's error once ctx is
// done.
type Reader struct {
	r   io.Reader
	ctx context.Context
}

// NewReader wraps r.
func NewReader(ctx context.Context, r io.Reader) *Reader { return &Reader{r: r, ctx: ctx} }

// Read reads from the reader unless ctx is done.
func (r *Reader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}
