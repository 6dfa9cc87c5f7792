package progress

import (
	"bytes"
	"testing"
	"time"
)

// TestLines: one line when a stage begins and one when it ends, however
// many elements report it; a stage begun ends the earlier ones; Stop the
// last; nothing when not started.
func TestLines(t *testing.T) {
	clock := time.Unix(0, 0)
	now = func() time.Time { clock = clock.Add(500 * time.Millisecond); return clock }
	defer func() { now = time.Now }()
	Begin("ignored")
	var b bytes.Buffer
	Start(&b, "x: ")
	for range 3 {
		Begin("read")
	}
	Begin("fit")
	Begin("read") // a late element of an ended stage: nothing
	End("fit")
	End("fit")
	Begin("write")
	Stop()
	Begin("after")
	want := "x: read ...\nx: read: done in 0.50s\nx: fit ...\nx: fit: done in 0.50s\nx: write ...\nx: write: done in 0.50s\n"
	if b.String() != want {
		t.Errorf("got\n%swant\n%s", b.String(), want)
	}
}
