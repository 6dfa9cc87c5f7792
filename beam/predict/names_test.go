package predict

import (
	"maps"
	"testing"
)

// TestShardNames: a shard is named after its input; inputs alike in
// name take their folders, then their extensions, then an index; the
// names are unique and independent of the inputs' order.
func TestShardNames(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want map[string]string
	}{
		{[]string{"data/part-007.csv", "data/part-008.csv.gz", "data/p.parquet", "gs://b/in/q.tsv"},
			map[string]string{"data/part-007.csv": "part-007.pred.csv", "data/part-008.csv.gz": "part-008.pred.csv",
				"data/p.parquet": "p.pred.csv", "gs://b/in/q.tsv": "q.pred.csv"}},
		{[]string{"in/2024/x.csv", "in/2025/x.csv", "in/y.csv"},
			map[string]string{"in/2024/x.csv": "2024_x.pred.csv", "in/2025/x.csv": "2025_x.pred.csv", "in/y.csv": "y.pred.csv"}},
		{[]string{"d/x.csv", "d/x.csv.gz"},
			map[string]string{"d/x.csv": "x.csv.pred.csv", "d/x.csv.gz": "x.csv.gz.pred.csv"}},
		{[]string{"x.csv", "sub/x.csv"},
			map[string]string{"x.csv": "x.pred.csv", "sub/x.csv": "sub_x.pred.csv"}},
		// A flattened name that is another input's own: the extension.
		{[]string{"a/b/x.csv", "a/c/x.csv", "a/b_x.csv"},
			map[string]string{"a/b/x.csv": "b_x.csv.pred.csv", "a/c/x.csv": "c_x.pred.csv", "a/b_x.csv": "b_x.pred.csv"}},
	} {
		got := ShardNames(c.in)
		if !maps.Equal(got, c.want) {
			t.Errorf("%q: got %v, want %v", c.in, got, c.want)
		}
		rev := make([]string, len(c.in))
		for i, p := range c.in {
			rev[len(c.in)-1-i] = p
		}
		if !maps.Equal(ShardNames(rev), got) {
			t.Errorf("%q: the names depend on the order", c.in)
		}
	}
}
