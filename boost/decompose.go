package boost

// PreferDecomposition is one-vs-rest ("ovr") for settings the softmax fit
// does not take (a focal, weighted or custom objective, a positive-class
// weight, AUC early stopping): such a gbdt fits a label of three or more
// classes as one binary model per class, the way it was configured, and
// not as an error. "" otherwise: the native softmax (the
// multiclass.Decomposer contract).
func (m *Method) PreferDecomposition() string {
	if CheckClasses(&m.s) != nil {
		return "ovr"
	}
	return ""
}
