package cv

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/predfile"
)

// WriteOOF writes r's out-of-fold predictions of the rows of d as CSV,
// one line per row and repeat, in the predictions format aer eval and
// aer compare read. With ids (not nil) the first column, named idColumn,
// holds ids[i] on the lines of row i, as aer predict writes an id column
// (the predictions readers take it for the id). Then come row (the row's
// number in d, from 1), repeat and fold (from 1), which the readers take
// as extra columns, and the prediction: for two classes label (0/1),
// score (exact) and pred (score >= the threshold of the model that
// scored the row); for more, label and pred (names from classes, one per
// class) and score_<class> per class (exact). weight ends the line when
// d has weights.
func WriteOOF(w io.Writer, d *learn.Data, r *Result, classes []string, idColumn string, ids []string) error {
	k := r.Classes
	if k > 2 && len(classes) != k {
		return fmt.Errorf("cv: %d class names for %d classes", len(classes), k)
	}
	if ids != nil && len(ids) != d.Rows() {
		return fmt.Errorf("cv: %d ids for %d rows", len(ids), d.Rows())
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if ids != nil {
		bw.WriteString(csvField(idColumn) + ",")
	}
	bw.WriteString("row,repeat,fold,")
	if k == 2 {
		bw.WriteString("label,score,pred")
	} else {
		bw.WriteString("label,pred")
		for _, c := range classes {
			bw.WriteString("," + csvField(predfile.ScorePrefix+c))
		}
	}
	if d.W != nil {
		bw.WriteString(",weight")
	}
	bw.WriteByte('\n')
	buf := make([]byte, 0, 64+16*k)
	for rep := range r.Proba {
		for i := range d.Rows() {
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
			var err error
			if k == 2 {
				buf, err = appendTwo(buf, r, rep, i, d.Y[i])
			} else {
				buf, err = appendMany(buf, r, rep, i, classes[d.Y[i]], classes)
			}
			if err != nil {
				return err
			}
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

// appendTwo appends ",label,score,pred" of row i in repeat rep of a
// two-class result.
func appendTwo(buf []byte, r *Result, rep, i, label int) ([]byte, error) {
	s := r.Proba[rep][2*i+1]
	if s != s {
		return nil, fmt.Errorf("cv: repeat %d, row %d: score is NaN", rep+1, i+1)
	}
	buf = append(buf, ',', byte('0'+label), ',')
	buf = strconv.AppendFloat(buf, s, 'g', -1, 64)
	return append(buf, ',', byte('0'+r.Pred[rep][i])), nil
}

// appendMany appends ",label,pred" and the class probabilities of row i
// in repeat rep of a result of more classes.
func appendMany(buf []byte, r *Result, rep, i int, label string, classes []string) ([]byte, error) {
	k := r.Classes
	buf = append(buf, ',')
	buf = append(buf, csvField(label)...)
	buf = append(buf, ',')
	buf = append(buf, csvField(classes[r.Pred[rep][i]])...)
	for _, v := range r.Proba[rep][i*k : (i+1)*k] {
		if v != v {
			return nil, fmt.Errorf("cv: repeat %d, row %d: a probability is NaN", rep+1, i+1)
		}
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
	}
	return buf, nil
}

// csvField quotes s when CSV requires it.
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\r\n") || strings.TrimSpace(s) != s {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
