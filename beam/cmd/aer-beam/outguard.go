package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// input is a file a command reads, named by its flag.
type input struct{ flag, path string }

// matched returns the files a pattern flag matched as inputs.
func matched(flag string, files []string) []input {
	in := make([]input, len(files))
	for k, f := range files {
		in[k] = input{flag, f}
	}
	return in
}

// remote says whether p is a path of a file system reached by URL
// (gs://, s3://), which os cannot look at.
func remote(p string) bool { return strings.Contains(p, "://") }

// sameFile says whether paths a and b name one file: by os.SameFile for
// local paths, so that a second name for it (a relative path, a hard or
// symbolic link) counts; by the cleaned path on other file systems.
func sameFile(a, b string) bool {
	if remote(a) || remote(b) {
		return remote(a) && remote(b) && path.Clean(a) == path.Clean(b)
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false // no such file yet: it cannot be an input
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// refuseOverwrite is a usage error when the file out, which a command
// writes (what names it), is one of its inputs, as aer's refuseOverwrite
// for the core commands: writing there would replace the data being read
// (aer-beam fit --train 'sh*.csv' --out sh0.csv would turn a training
// shard into the model).
func refuseOverwrite(what, out string, inputs []input) error {
	for _, in := range inputs {
		if sameFile(out, in.path) {
			return usageError(fmt.Sprintf("%s %s is the %s file %s: refusing to overwrite an input (choose another output)", what, out, in.flag, in.path))
		}
	}
	return nil
}

// refuseOutDir is a usage error when the output folder out is, or lies
// inside, one of the input files (the shards could not be written there),
// or when a file predict writes in it, a shard (names) or the manifest,
// is an input.
func refuseOutDir(out string, names []string, inputs []input) error {
	if !remote(out) {
		for dir := filepath.Clean(out); ; dir = filepath.Dir(dir) {
			for _, in := range inputs {
				if fi, err := os.Stat(in.path); err == nil && fi.Mode().IsRegular() && sameFile(dir, in.path) {
					if dir == filepath.Clean(out) {
						return usageError(fmt.Sprintf("--out %s is the %s file %s: want a folder for the shards (choose another)", out, in.flag, in.path))
					}
					return usageError(fmt.Sprintf("--out %s lies inside the %s file %s: want a folder for the shards (choose another)", out, in.flag, in.path))
				}
			}
			if parent := filepath.Dir(dir); parent == dir {
				break
			}
		}
	}
	for _, name := range names {
		p := strings.TrimSuffix(out, "/") + "/" + name
		if err := refuseOverwrite("the output", p, inputs); err != nil {
			return err
		}
	}
	return nil
}
