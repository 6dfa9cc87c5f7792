package forest

import (
	"path/filepath"
	"testing"

	"github.com/aer-go/aer/internal/classtest"
)

// TestMultiQuality compares both forests' multi-class fits, seeds 0-4,
// with imbalanced-learn 0.10's on three shared multi-class tables
// (testdata/imblearn_multiclass.json): the mean balanced accuracy and
// macro AUC over the tables may not fall more than 0.02 below
// imbalanced-learn's (the random draws differ).
func TestMultiQuality(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	classtest.CompareImblearn(t, filepath.Join("testdata", "imblearn_multiclass.json"), NewBalancedRF(), NewBalancedBagging())
}
