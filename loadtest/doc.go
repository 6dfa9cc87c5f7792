// Package loadtest sends HTTP requests to a server at a fixed rate and
// measures what comes back: latency quantiles, throughput, errors, and the
// server's resident memory over time. It is the load generator of aer
// loadtest, made for aer serve but usable against any HTTP endpoint that
// answers POST requests.
//
// The fixed-rate run is open loop: request i is sent at start + i/rate
// whatever happened to the earlier ones, so a stalled server cannot slow
// the schedule down and hide its stall (the "coordinated omission" of
// closed-loop generators); latency counts from the moment a request is
// sent, and how far sends fell behind the schedule is reported, so a
// generator that could not keep up is visible. A zero rate runs closed
// loop instead, a fixed number of requests in flight, to find the
// throughput at saturation.
//
// CSVBodies cuts a CSV table into request bodies of a few rows each, the
// header first in every body, as aer loadtest sends them to aer serve.
package loadtest
