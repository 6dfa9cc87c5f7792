package cv

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/aer-go/aer/learn"
)

// WriteOOF writes r's out-of-fold predictions of the rows of d as CSV,
// one line per row and repeat, in the predictions format aer eval and aer
// compare read: row (the row's number in d, from 1), repeat and fold (from
// 1), label (0/1), score (exact), pred (score >= the threshold of the
// model that scored the row), and weight when d has weights. Readers of
// predictions take row, repeat and fold as extra columns.
func WriteOOF(w io.Writer, d *learn.Data, r *Result) error {
	return WriteOOFIDs(w, d, r, "", nil)
}

// WriteOOFIDs writes as WriteOOF does, with a first column named
// idColumn holding ids[i] on the lines of row i, as aer predict writes
// an id column (the predictions readers take it for the id). Without
// ids (nil) it is WriteOOF.
func WriteOOFIDs(w io.Writer, d *learn.Data, r *Result, idColumn string, ids []string) error {
	if ids != nil && len(ids) != d.Rows() {
		return fmt.Errorf("cv: %d ids for %d rows", len(ids), d.Rows())
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if ids != nil {
		bw.WriteString(csvField(idColumn) + ",")
	}
	bw.WriteString("row,repeat,fold,label,score,pred")
	if d.W != nil {
		bw.WriteString(",weight")
	}
	bw.WriteByte('\n')
	buf := make([]byte, 0, 64)
	for rep := range r.Score {
		for i, s := range r.Score[rep] {
			buf = buf[:0]
			if ids != nil {
				buf = append(buf, csvField(ids[i])...)
				buf = append(buf, ',')
			}
			buf = strconv.AppendInt(buf, int64(i+1), 10)
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, int64(rep+1), 10)
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, int64(r.FoldOf[rep][i]), 10)
			buf = append(buf, ',', byte('0'+d.Y[i]), ',')
			if s != s {
				return fmt.Errorf("cv: repeat %d, row %d: score is NaN", rep+1, i+1)
			}
			buf = strconv.AppendFloat(buf, s, 'g', -1, 64)
			pred := byte('0')
			if s >= r.Threshold[rep][i] {
				pred = '1'
			}
			buf = append(buf, ',', pred)
			if d.W != nil {
				buf = append(buf, ',')
				buf = strconv.AppendFloat(buf, d.W[i], 'g', -1, 64)
			}
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// csvField quotes s when CSV requires it.
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\r\n") || strings.TrimSpace(s) != s {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
