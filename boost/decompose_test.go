package boost

import "testing"

// TestPreferDecomposition: a focal gbdt fits multi-class labels one
// class against the rest; a plain one natively.
func TestPreferDecomposition(t *testing.T) {
	m := NewMethod().(*Method)
	if got := m.PreferDecomposition(); got != "" {
		t.Errorf("plain gbdt prefers %q, want native", got)
	}
	if err := m.Set("objective", "focal"); err != nil {
		t.Fatal(err)
	}
	if got := m.PreferDecomposition(); got != "ovr" {
		t.Errorf("focal gbdt prefers %q, want ovr", got)
	}
}
