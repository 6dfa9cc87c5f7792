package main

import (
	"os"
)

// input is a file a command reads, named by its flag.
type input struct{ flag, path string }

// refuseOverwrite is a usage error when the output file out (given as
// outFlag) is one of the command's inputs: the same file by os.SameFile,
// so a second name for it (a relative path, a hard or symbolic link) is
// caught too. Writing there would replace the data being read (aer fit
// --out train.csv would turn the training data into a model).
func refuseOverwrite(cmd, outFlag, out string, inputs ...input) error {
	if out == "" || out == "-" {
		return nil
	}
	fo, err := os.Stat(out)
	if err != nil {
		return nil // no such file yet: it cannot be an input
	}
	for _, in := range inputs {
		if in.path == "" || in.path == "-" {
			continue
		}
		fi, err := os.Stat(in.path)
		if err == nil && os.SameFile(fo, fi) {
			return usageErrorf("%s: %s %s is the %s file: refusing to overwrite an input (choose another output file)", cmd, outFlag, out, in.flag)
		}
	}
	return nil
}
