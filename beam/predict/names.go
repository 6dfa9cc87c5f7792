package predict

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// ShardSuffix ends every output shard's name.
const ShardSuffix = ".pred.csv"

// ShardNames returns the output shard's file name of every input path,
// named after the input so that a user can map one to the other:
//
//   - data/part-007.csv, data/part-007.csv.gz or data/part-007.parquet
//     gives part-007.pred.csv (the extensions .gz, then .csv, .tsv,
//     .txt or .parquet, dropped);
//   - inputs that would share a name take the folders they do not share
//     into it, flattened with "_": a/2024/x.csv and a/2025/x.csv give
//     2024_x.pred.csv and 2025_x.pred.csv;
//   - inputs still alike (x.csv and x.csv.gz in one folder) keep their
//     extensions: x.csv.pred.csv and x.csv.gz.pred.csv;
//   - and any name left taken gets -2, -3, ... in the inputs' sorted
//     order.
//
// The names depend on the set of inputs only, not on their order.
func ShardNames(inputs []string) map[string]string {
	in := slices.Clone(inputs)
	slices.Sort(in)
	in = slices.Compact(in)
	level := make([]int, len(in))
	cand := func(i int) string {
		switch level[i] {
		case 0:
			return stem(path.Base(in[i]))
		case 1:
			return stem(flatten(in[i], in, i))
		}
		return flatten(in[i], in, i)
	}
	for changed := true; changed; {
		changed = false
		byName := map[string][]int{}
		for i := range in {
			byName[cand(i)] = append(byName[cand(i)], i)
		}
		for _, group := range byName {
			if len(group) < 2 {
				continue
			}
			for _, i := range group {
				if level[i] < 2 {
					level[i]++
					changed = true
				}
			}
		}
	}
	names := make(map[string]string, len(in))
	used := map[string]bool{}
	for i := range in {
		name := cand(i)
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s-%d", cand(i), k)
		}
		used[name] = true
		names[in[i]] = name + ShardSuffix
	}
	return names
}

// stem drops a file name's data extensions: .gz, then .csv, .tsv, .txt
// or .parquet.
func stem(name string) string {
	s := strings.TrimSuffix(name, ".gz")
	for _, ext := range []string{".csv", ".tsv", ".txt", ".parquet"} {
		if t, ok := strings.CutSuffix(s, ext); ok && t != "" {
			return t
		}
	}
	if s == "" {
		return name
	}
	return s
}

// flatten returns p without the folders every path of the inputs whose
// base name stems alike shares, its separators "_".
func flatten(p string, all []string, self int) string {
	var peers []string
	for j, q := range all {
		if j == self || stem(path.Base(q)) == stem(path.Base(p)) {
			peers = append(peers, q)
		}
	}
	dirs := strings.Split(path.Dir(p), "/")
	common := len(dirs)
	for _, q := range peers {
		qd := strings.Split(path.Dir(q), "/")
		n := 0
		for n < common && n < len(qd) && qd[n] == dirs[n] {
			n++
		}
		common = n
	}
	var parts []string
	for _, d := range dirs[common:] {
		if d != "" && d != "." && d != ".." {
			parts = append(parts, d)
		}
	}
	return strings.Join(append(parts, path.Base(p)), "_")
}

// join returns the path of file name in folder dir, on any file system
// Beam reaches (its paths are separated by "/").
func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}
