package modelfile_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/modelfile"
)

func Example() {
	h := &modelfile.Header{
		Method: "gbdt",
		Schema: dataset.Schema{Features: []string{"x1", "x2"}, Label: "label", Classes: []string{"0", "1"}},
	}
	var buf bytes.Buffer
	if err := modelfile.Encode(&buf, h, []byte("method payload")); err != nil {
		panic(err)
	}
	got, payload, err := modelfile.Decode(&buf)
	fmt.Println(got.Method, string(payload), err)

	_, err = got.Schema.Columns([]string{"x1", "x3"})
	fmt.Println(errors.Is(err, modelfile.ErrSchema))
	fmt.Println(err)
	// Output:
	// gbdt method payload <nil>
	// true
	// data columns do not match the model: missing "x2"; unexpected "x3" (the model expects "x1", "x2")
}
