package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// writeParquet writes the CSV text as a Parquet file: columns in the CSV's
// order, named as in its header; kinds[j] is "double" (nullable, an empty
// cell null), "int32", "int64" or "string".
func writeParquet(t *testing.T, text, path string, kinds []string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(text), "\n")
	header := strings.Split(lines[0], ",")
	var fields []reflect.StructField
	for j, h := range header {
		var typ reflect.Type
		tag := h
		switch kinds[j] {
		case "double":
			typ, tag = reflect.TypeFor[*float64](), h+",optional"
		case "int32":
			typ = reflect.TypeFor[int32]()
		case "int64":
			typ = reflect.TypeFor[int64]()
		case "string":
			typ = reflect.TypeFor[string]()
		}
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", j), Type: typ, Tag: reflect.StructTag(`parquet:"` + tag + `"`)})
	}
	st := reflect.StructOf(fields)
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, parquet.SchemaOf(reflect.New(st).Interface()))
	for _, line := range lines[1:] {
		v := reflect.New(st).Elem()
		for j, cell := range strings.Split(line, ",") {
			f := v.Field(j)
			switch kinds[j] {
			case "double":
				if cell != "" {
					x, err := strconv.ParseFloat(cell, 64)
					if err != nil {
						t.Fatal(err)
					}
					f.Set(reflect.ValueOf(&x))
				}
			case "int32", "int64":
				n, err := strconv.ParseInt(cell, 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				f.SetInt(n)
			case "string":
				f.SetString(cell)
			}
		}
		if err := w.Write(v.Addr().Interface()); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestParquetAndGzipModelsIdentical: the same table as CSV, gzip-compressed
// CSV and Parquet (read from a file or from stdin) gives byte-identical
// models, with a categorical column, an integer column, missing cells, an
// id, weights and a dropped column.
func TestParquetAndGzipModelsIdentical(t *testing.T) {
	dir := t.TempDir()
	train, _, _ := aerTask(t, dir)
	b, err := os.ReadFile(train)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var kinds []string
	for i, line := range lines {
		f := strings.Split(line, ",")
		label := f[len(f)-1]
		f = f[:len(f)-1]
		if i == 0 {
			for range f {
				kinds = append(kinds, "double")
			}
			kinds = append([]string{"string"}, append(kinds, "int32", "string", "double", "string", "int64")...)
			sb.WriteString("id," + strings.Join(f, ",") + ",count,region,w,note,label\n")
			continue
		}
		if i%17 == 0 {
			f[1] = "" // missing
		}
		region := []string{"north", "south", "east"}[i%3]
		fmt.Fprintf(&sb, "row%d,%s,%d,%s,%d,text %d,%s\n", i, strings.Join(f, ","), i%5, region, 1+i%2, i, label)
	}
	csvPath, gzPath, pqPath := filepath.Join(dir, "t.csv"), filepath.Join(dir, "t.csv.gz"), filepath.Join(dir, "t.parquet")
	os.WriteFile(csvPath, []byte(sb.String()), 0o644)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(sb.String()))
	zw.Close()
	os.WriteFile(gzPath, gz.Bytes(), 0o644)
	writeParquet(t, sb.String(), pqPath, kinds)

	fit := func(data string, stdin []byte) []byte {
		t.Helper()
		out := filepath.Join(dir, "m-"+filepath.Base(data)+".aer")
		args := []string{"fit", "--method", "gbdt", "--train", data, "--id", "id", "--weight", "w", "--drop", "note", "--param", "n_estimators=15", "--out", out}
		if _, errOut, code := aerStdin(t, bytes.NewReader(stdin), args...); code != 0 {
			t.Fatalf("fit %s: %s", data, errOut)
		}
		m, _ := os.ReadFile(out)
		return m
	}
	want := fit(csvPath, nil)
	for _, s := range []string{`"region=north"`, `"count"`, `"id":"id"`, `"weight":"w"`} {
		if !bytes.Contains(want, []byte(s)) {
			t.Errorf("the model's schema lacks %s", s)
		}
	}
	pq, _ := os.ReadFile(pqPath)
	for name, got := range map[string][]byte{
		"gzip":          fit(gzPath, nil),
		"parquet":       fit(pqPath, nil),
		"parquet stdin": fit("-", pq),
	} {
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the model differs from the CSV's", name)
		}
	}
	// aer info and aer predict read Parquet too.
	out, errOut, code := aer(t, "info", "--data", pqPath, "--id", "id", "--drop", "note", "--json")
	if code != 0 || !strings.Contains(out, `"type": "categorical"`) || !strings.Contains(out, `"name": "region"`) {
		t.Errorf("info on Parquet: exit %d: %s", code, errOut)
	}

	model := filepath.Join(dir, "m-t.csv.aer")
	p1, errOut, code := aer(t, "predict", "--model", model, "--data", pqPath)
	if code != 0 {
		t.Fatal(errOut)
	}
	p2, _, _ := aer(t, "predict", "--model", model, "--data", csvPath)
	if p1 != p2 || !strings.HasPrefix(p1, "id,label,score,pred\nrow1,") {
		t.Errorf("Parquet predictions differ from CSV's:\n%.200s\n%.200s", p1, p2)
	}
}
