// Package softmax turns a row of scores into class probabilities in
// place, the one softmax the boosted trees (package boost) and SAMME
// (package adaboost) share.
package softmax
