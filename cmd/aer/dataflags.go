package main

import (
	"flag"

	"github.com/aer-go/aer/dataset"
)

// dataFlags are the flags every command reading a labelled CSV shares.
type dataFlags struct {
	label    string
	positive string
}

func (d *dataFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&d.label, "label", "", "label column (default: the column named label, else the last column)")
	fs.StringVar(&d.positive, "positive", "", "label value of the positive (minority) class (default: the rarer class)")
}

func (d *dataFlags) options() dataset.Options {
	return dataset.Options{Label: d.label, Positive: d.positive}
}
