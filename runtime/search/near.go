package search

import "fmt"

// WithNearBest makes share of every following Maximize's raw candidates
// (rounded down) points near the starts given with AddStart (the incumbent,
// the front's points), taken in turn, and returns s. Each keeps its start's
// components but a random subset of the continuous ones, each moved with
// probability min(1, 20/D) (at least one), uniformly within ±width of the
// start in unit coordinates, within the box. In many dimensions an
// acquisition nearly vanishes at quasi-random points of the box, all far
// from the data, and its gradient with it, so that refinements from them
// never reach the region near the best points where the improvements are;
// candidates made there give the refinements starts inside it (TuRBO's
// candidates, without the region; BoTorch's sample_around_best). Inside a
// trust region (SetBox with a centre) the raw candidates perturb the
// centre already and this does nothing; nor without starts. share = 0
// turns it off. It panics unless 0 <= share <= 1 and width > 0, which the
// compiler guarantees.
func (s *LBFGS) WithNearBest(share, width float64) *LBFGS {
	if !(share >= 0 && share <= 1 && width > 0) {
		panic(fmt.Sprintf("search: near-best share %v, width %v", share, width))
	}
	s.nearShare, s.nearWidth = share, width
	return s
}

// placeNear replaces the last raw candidates by points near the starts
// (WithNearBest), drawing from the mask stream of this Maximize.
func (s *LBFGS) placeNear() {
	count := int(s.nearShare * float64(s.raw))
	continuous := s.dim
	for _, l := range s.levels {
		if l > 0 {
			continuous--
		}
	}
	if count == 0 || s.nStarts == 0 || s.hasCentre || continuous == 0 {
		return
	}
	p := min(1, perturbedComponents/float64(continuous))
	for c := range count {
		i := s.raw - count + c
		row := s.candidates[i*s.dim : (i+1)*s.dim]
		copy(row, s.candidates[(s.raw+c%s.nStarts)*s.dim:])
		moved := false
		for j := range row {
			if s.isContinuous(j) && unitDraw(&s.mask) < p {
				s.moveNear(row, j)
				moved = true
			}
		}
		for !moved {
			if j := int(s.mask.Uint64() % uint64(s.dim)); s.isContinuous(j) {
				s.moveNear(row, j)
				moved = true
			}
		}
	}
}

// isContinuous reports whether component j is not categorical.
func (s *LBFGS) isContinuous(j int) bool { return s.levels == nil || s.levels[j] == 0 }

// moveNear moves component j of row uniformly within ±nearWidth, kept in
// the box.
func (s *LBFGS) moveNear(row []float64, j int) {
	row[j] = min(max(row[j]+s.nearWidth*(2*unitDraw(&s.mask)-1), s.lo[j]), s.hi[j])
}
