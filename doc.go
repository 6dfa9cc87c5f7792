// Package aer is imbalanced classification in Go, of two classes or
// more: read a table, fit a model, score and explain tables by column
// name, save the model
// as the file the aer command line reads and writes, cross-validate, and
// serve it over HTTP in a program's own server (serve.Handler). It is the
// library behind the aer command: aer fit, aer predict, aer cv and aer
// bench run what this package runs, so a Go program and the command line
// give byte-identical models and scores.
//
// The default method is AER, the adaptive ensemble of classifiers with
// regularization of the paper "Adaptive Ensemble of Classifiers with
// Regularization for Imbalanced Data Classification" (package adaptive);
// every other registered method (boosted trees, logistic regression,
// forests, SVM, the balanced ensembles of imbalanced-learn, ...; aer help
// fit lists them) is fitted the same way, by name (Method) or as any
// learn.Method value.
//
// The job, in four calls:
//
//	train, err := aer.ReadTable("train.csv", nil)           // CSV, .csv.gz or Parquet
//	valid, err := aer.ReadTable("valid.csv", nil)
//	model, err := aer.Fit(ctx, train, valid, nil, nil)     // AER, decision layer on valid
//	err = model.Save(ctx, "model.aer")                      // aer predict --model model.aer
//
//	test, err := model.ReadTable("test.csv")                // or any Table
//	preds, err := model.Predict(ctx, test, nil)             // probabilities, classes by name
//
// One model serves any number of classes, two being the case k = 2: a
// Model gives every class's probability (Predictions.Probability), and
// its decision (Model.Layer) is a threshold of two classes, or class
// weights or a cost matrix of three or more; Fit, CrossValidate,
// Predict, Explain, Save and Load take either, and a table's classes
// (Table.Classes) say which it is. Three or more classes are fitted by
// the method's own model where it has one, else one-vs-rest
// (Settings.Decomposition).
//
// Fit follows gonum's optimize.Minimize: nil Settings and a nil method
// mean the defaults. Settings hold what is fitted (the method's
// parameters as text, key=value as aer fit --param; a grid search; the
// decision: its objective, rule, calibration or cost matrix; the
// decomposition of three or more classes) and the caller's run-time
// choices (seed, workers, progress, logger), which are never saved in the
// model.
//
// A Table has named columns: numeric and categorical features, a label
// of two or more classes, an id, row weights and dropped columns. It is
// read from files (ReadTable, DecodeTable) or built from Go values
// (NewTable from column slices, TableFromRows from structs or maps),
// always through the one parser of package dataset. A Model scores a Table by column name:
// reordered columns give the same scores, extra columns are ignored, a
// missing feature column is an error naming it, a category value the
// training data lacked is encoded as all zeros and counted, and
// predictions carry the class names of the training data.
package aer
