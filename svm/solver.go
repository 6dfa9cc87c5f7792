package svm

import (
	"context"
	"math"

	"github.com/aer-go/aer/learn"
)

// The SMO solver of libsvm (Chang and Lin 2011) for the C-SVC dual
//
//	min_a  a'Qa/2 - e'a   subject to  y'a = 0,  0 <= a_i <= C_i,
//
// with Q_ij = y_i y_j K(x_i, x_j): working sets of two variables chosen by
// second-order information (WSS3 of Fan, Chen and Lin 2005), shrinking of
// variables stuck at a bound, and a cache of kernel columns. Variables are
// kept in a working order that shrinking permutes so that the active ones
// come first; the kernel rows, cache columns and every per-variable array
// are permuted with them.
//
// The solver keeps F = y * G rather than libsvm's gradient G = Qa - e, and
// caches K rather than Q. Signs flip exactly in floating point, so every
// quantity equals libsvm's bit for bit, but the loops over all variables
// lose their branches on y: the working-set scans read F and two penalty
// arrays (0 for members of I_up or I_low, infinite otherwise), and the
// gradient update is F_k += (y_i da_i) K_ik + (y_j da_j) K_jk.

// tau replaces a non-positive curvature in a two-variable step.
const tau = 1e-12

const (
	lowerBound = iota
	upperBound
	free
)

type solver struct {
	l, active int
	q         *qmatrix
	y         []float64 // +1 or -1
	c         []float64 // upper bounds C_i
	alpha     []float64
	f         []float64 // y_i G_i, G = Qa - e the gradient
	fbar      []float64 // y_i sum over upper-bounded j of C_j Q_ij
	status    []uint8
	// upPen and lowPen are 0 for the members of I_up = {y=+1, a<C} u
	// {y=-1, a>0} and I_low = {y=+1, a>0} u {y=-1, a<C}, +Inf otherwise.
	upPen, lowPen []float64
	order         []int // order[k]: the input position of working position k
	eps           float64
	unshrink      bool
	swaps         [][2]int // the swaps of one shrinking, for the cache
}

// solution is the solver's result, in input order.
type solution struct {
	alpha     []float64
	g         []float64 // libsvm's gradient
	rho       float64
	obj       float64
	iter      int
	converged bool
}

// newSolver prepares the solver over q's rows with labels y and bounds c
// (both copied).
func newSolver(q *qmatrix, y, c []float64, eps float64) *solver {
	l := len(c)
	s := &solver{l: l, active: l, q: q, y: append([]float64(nil), y...), c: append([]float64(nil), c...),
		alpha: make([]float64, l), f: make([]float64, l), fbar: make([]float64, l), status: make([]uint8, l),
		upPen: make([]float64, l), lowPen: make([]float64, l), order: make([]int, l), eps: eps}
	for i := range l {
		s.order[i] = i
		s.f[i] = -s.y[i] // a = 0: G = -e
		s.updateStatus(i)
	}
	return s
}

func (s *solver) updateStatus(i int) {
	switch {
	case s.alpha[i] >= s.c[i]:
		s.status[i] = upperBound
	case s.alpha[i] <= 0:
		s.status[i] = lowerBound
	default:
		s.status[i] = free
	}
	inf := math.Inf(1)
	s.upPen[i], s.lowPen[i] = 0, 0
	switch {
	case s.status[i] == upperBound && s.y[i] > 0, s.status[i] == lowerBound && s.y[i] < 0:
		s.upPen[i] = inf
	case s.status[i] == upperBound, s.status[i] == lowerBound:
		s.lowPen[i] = inf
	}
}

func (s *solver) isUpper(i int) bool { return s.status[i] == upperBound }
func (s *solver) isLower(i int) bool { return s.status[i] == lowerBound }
func (s *solver) isFree(i int) bool  { return s.status[i] == free }

// swap exchanges working positions i and j, except in the kernel cache,
// which gets the swaps of a shrinking at once.
func (s *solver) swap(i, j int) {
	s.swaps = append(s.swaps, [2]int{i, j})
	s.q.swap(i, j)
	s.y[i], s.y[j] = s.y[j], s.y[i]
	s.f[i], s.f[j] = s.f[j], s.f[i]
	s.status[i], s.status[j] = s.status[j], s.status[i]
	s.upPen[i], s.upPen[j] = s.upPen[j], s.upPen[i]
	s.lowPen[i], s.lowPen[j] = s.lowPen[j], s.lowPen[i]
	s.alpha[i], s.alpha[j] = s.alpha[j], s.alpha[i]
	s.order[i], s.order[j] = s.order[j], s.order[i]
	s.fbar[i], s.fbar[j] = s.fbar[j], s.fbar[i]
	s.c[i], s.c[j] = s.c[j], s.c[i]
}

// reconstructGradient recomputes the gradient of the inactive variables
// from fbar and the free variables.
func (s *solver) reconstructGradient() {
	if s.active == s.l {
		return
	}
	for j := s.active; j < s.l; j++ {
		s.f[j] = s.fbar[j] - s.y[j]
	}
	nFree := 0
	for j := range s.active {
		if s.isFree(j) {
			nFree++
		}
	}
	if nFree*s.l > 2*s.active*(s.l-s.active) {
		for i := s.active; i < s.l; i++ {
			ki := s.q.get(i, s.active)
			fi := s.f[i]
			for j := range s.active {
				if s.isFree(j) {
					fi += s.y[j] * s.alpha[j] * float64(ki[j])
				}
			}
			s.f[i] = fi
		}
	} else {
		for i := range s.active {
			if s.isFree(i) {
				ki := s.q.get(i, s.l)
				axpy32(s.f[s.active:s.l], ki[s.active:s.l], s.y[i]*s.alpha[i])
			}
		}
	}
}

// solve runs SMO until the largest KKT violation is below eps, or for
// maxIter iterations when maxIter > 0. It checks ctx every 64 iterations.
func (s *solver) solve(ctx context.Context, maxIter int, shrinking bool) (*solution, error) {
	l := s.l
	iter := 0
	counter := min(l, 1000) + 1
	converged := true
	for {
		if maxIter > 0 && iter >= maxIter {
			converged = false
			break
		}
		if iter&63 == 0 {
			if err := learn.Interrupted(ctx); err != nil {
				return nil, err
			}
		}
		if counter--; counter == 0 {
			counter = min(l, 1000)
			if shrinking {
				s.doShrinking()
			}
		}
		i, j, ok := s.selectWorkingSet()
		if !ok {
			s.reconstructGradient()
			s.active = l
			if i, j, ok = s.selectWorkingSet(); !ok {
				break
			}
			counter = 1 // shrink at the next iteration
		}
		iter++
		s.step(i, j)
	}
	if s.active < l {
		s.reconstructGradient()
		s.active = l
	}
	sol := &solution{alpha: make([]float64, l), g: make([]float64, l), rho: s.rho(), iter: iter, converged: converged}
	v := 0.0
	for i := range l {
		g := s.y[i] * s.f[i]
		v += s.alpha[i] * (g - 1)
		sol.alpha[s.order[i]] = s.alpha[i]
		sol.g[s.order[i]] = g
	}
	sol.obj = v / 2
	return sol, nil
}

// step optimises the pair (i, j) analytically, clipping to the box, and
// updates the gradient and fbar.
func (s *solver) step(i, j int) {
	n := s.active
	ki := s.q.get(i, n)
	kj := s.q.get(j, n)
	ci, cj := s.c[i], s.c[j]
	oldI, oldJ := s.alpha[i], s.alpha[j]
	a := s.alpha
	gi, gj := s.y[i]*s.f[i], s.y[j]*s.f[j]
	// Q_ij = y_i y_j K_ij: both of libsvm's cases read QD_i + QD_j - 2 K_ij.
	quad := s.q.qd[i] + s.q.qd[j] - 2*float64(ki[j])
	if quad <= 0 {
		quad = tau
	}
	if s.y[i] != s.y[j] {
		delta := (-gi - gj) / quad
		diff := a[i] - a[j]
		a[i] += delta
		a[j] += delta
		if diff > 0 {
			if a[j] < 0 {
				a[j] = 0
				a[i] = diff
			}
		} else if a[i] < 0 {
			a[i] = 0
			a[j] = -diff
		}
		if diff > ci-cj {
			if a[i] > ci {
				a[i] = ci
				a[j] = ci - diff
			}
		} else if a[j] > cj {
			a[j] = cj
			a[i] = cj + diff
		}
	} else {
		delta := (gi - gj) / quad
		sum := a[i] + a[j]
		a[i] -= delta
		a[j] += delta
		clipSum(&a[i], &a[j], sum, ci)
		clipSum(&a[j], &a[i], sum, cj)
	}

	updateGradient(s.f[:n], ki[:n], kj[:n], s.y[i]*(a[i]-oldI), s.y[j]*(a[j]-oldJ))

	ui, uj := s.isUpper(i), s.isUpper(j)
	s.updateStatus(i)
	s.updateStatus(j)
	if ui != s.isUpper(i) {
		s.addFbar(i, ci, ui)
	}
	if uj != s.isUpper(j) {
		s.addFbar(j, cj, uj)
	}
}

// addFbar adds C_i times column i of Q to gbar (in fbar's terms) when i
// reached its upper bound, or takes it away when it left it.
func (s *solver) addFbar(i int, ci float64, left bool) {
	ki := s.q.get(i, s.l)
	a := s.y[i] * ci
	if left {
		a = -a
	}
	axpy32(s.fbar[:s.l], ki[:s.l], a)
}

// selectWorkingSet returns the pair of WSS3: i the maximal violator
// among I_up, j the variable of I_low whose step with i decreases the
// objective most (second-order); ok is false when the largest violation
// is below eps.
func (s *solver) selectWorkingSet() (int, int, bool) {
	n := s.active
	gmax, i := maxViolator(s.f[:n], s.upPen[:n])
	if i < 0 {
		return 0, 0, false // I_up is empty: optimal
	}
	ki := s.q.get(i, n)
	gmax2, j := secondOrder(s.f[:n], s.lowPen[:n], s.q.qd[:n], ki[:n], gmax, s.q.qd[i])
	if gmax+gmax2 < s.eps || j == -1 {
		return 0, 0, false
	}
	return i, j, true
}

func (s *solver) beShrunk(i int, gmax1, gmax2 float64) bool {
	switch {
	case s.upPen[i] != 0: // bounded, in I_low only
		return -s.f[i] > gmax1
	case s.lowPen[i] != 0: // bounded, in I_up only
		return s.f[i] > gmax2
	}
	return false
}

// doShrinking moves the variables that are bounded and unlikely to move
// behind the active ones; close to convergence it first restores all of
// them once (unshrink).
func (s *solver) doShrinking() {
	gmax1, gmax2 := math.Inf(-1), math.Inf(-1) // max -F over I_up, max F over I_low
	for i := range s.active {
		if s.upPen[i] == 0 && -s.f[i] >= gmax1 {
			gmax1 = -s.f[i]
		}
		if s.lowPen[i] == 0 && s.f[i] >= gmax2 {
			gmax2 = s.f[i]
		}
	}
	if !s.unshrink && gmax1+gmax2 <= s.eps*10 {
		s.unshrink = true
		s.reconstructGradient()
		s.active = s.l
	}
	s.swaps = s.swaps[:0]
	for i := 0; i < s.active; i++ {
		if !s.beShrunk(i, gmax1, gmax2) {
			continue
		}
		s.active--
		for s.active > i {
			if !s.beShrunk(s.active, gmax1, gmax2) {
				s.swap(i, s.active)
				break
			}
			s.active--
		}
	}
	s.q.cache.swapAll(s.swaps)
}

// rho is the bias: the mean of y_i g_i over free variables, else the
// middle of the feasible interval.
func (s *solver) rho() float64 {
	nFree := 0
	ub, lb, sumFree := math.Inf(1), math.Inf(-1), 0.0
	for i := range s.active {
		switch {
		case s.isFree(i):
			nFree++
			sumFree += s.f[i]
		case s.upPen[i] == 0: // bounded, in I_up only
			ub = min(ub, s.f[i])
		default:
			lb = max(lb, s.f[i])
		}
	}
	if nFree > 0 {
		return sumFree / float64(nFree)
	}
	return (ub + lb) / 2
}

// clipSum is libsvm's clipping of one side of a pair of multipliers
// whose sum is fixed: when sum > c, an ai above c is cut to c (aj taking
// the rest); otherwise a negative aj is raised to 0 (ai taking the sum).
func clipSum(ai, aj *float64, sum, c float64) {
	if sum > c {
		if *ai > c {
			*ai = c
			*aj = sum - c
		}
	} else if *aj < 0 {
		*aj = 0
		*ai = sum
	}
}
