package par

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// TestFor: every task runs exactly once, for any number of workers and
// tasks, including none.
func TestFor(t *testing.T) {
	for _, workers := range []int{-1, 0, 1, 2, 7} {
		for _, n := range []int{0, 1, 2, 5, 1000} {
			counts := make([]atomic.Int32, n)
			For(workers, n, func(k int) { counts[k].Add(1) })
			for k := range counts {
				if c := counts[k].Load(); c != 1 {
					t.Fatalf("%d workers, %d tasks: task %d ran %d times", workers, n, k, c)
				}
			}
		}
	}
}

// TestForSerialOrder: one worker runs the tasks in order.
func TestForSerialOrder(t *testing.T) {
	var got []int
	For(1, 4, func(k int) { got = append(got, k) })
	for k, v := range got {
		if v != k {
			t.Fatalf("order %v", got)
		}
	}
}

func ExampleFor() {
	squares := make([]int, 5)
	For(2, len(squares), func(k int) { squares[k] = k * k })
	fmt.Println(squares)
	// Output: [0 1 4 9 16]
}
