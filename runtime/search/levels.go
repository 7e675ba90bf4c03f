package search

import (
	"math"
	"slices"
)

// Categorical components. A categorical component with L levels takes the
// unit coordinates (level + ½)/L, and the objective is flat between them
// (the caller snaps, and its gradient there is 0), so L-BFGS-B moves only
// the continuous components. The levels are searched two ways, as the mixed
// searches of BoTorch (optimize_acqf_mixed), CoCaBO and Casmopolitan do:
//
//   - with few combinations of levels (at most maxEnumerated), every one is
//     tried: the raw candidates cycle through them, and the best candidate of
//     each combination is refined besides the best restarts overall;
//   - with more, the raw candidates draw their levels quasi-randomly;
//   - either way, each refined point then takes the best single change of
//     one categorical component's level while that improves the value,
//     refining the continuous components again after each change (at most
//     maxLevelRounds changes).

const (
	// maxEnumerated is the most level combinations whose every one is
	// refined: each costs one more L-BFGS-B refinement per Maximize.
	maxEnumerated = 32
	// maxLevelRounds bounds the changes of level of one refinement.
	maxLevelRounds = 8
)

// enumerated returns the number of level combinations when they are few
// enough to enumerate, 0 otherwise (or without categorical components).
func enumerated(levels []int) int {
	combos := 1
	for _, l := range levels {
		if l > 0 {
			combos *= l
			if combos > maxEnumerated {
				return 0
			}
		}
	}
	if combos == 1 {
		return 0
	}
	return combos
}

// levelCoordinate is the unit coordinate of level l of L.
func levelCoordinate(l, levels int) float64 { return (float64(l) + 0.5) / float64(levels) }

// levelOf is the level of L whose share of [0, 1] holds u.
func levelOf(u float64, levels int) int {
	return min(max(int(math.Floor(u*float64(levels))), 0), levels-1)
}

// placeLevels sets the categorical components of the first n candidates:
// the raw ones cycle through the combinations when they are enumerated
// (candidate i takes combination i mod combos), and every other one is
// moved to the middle of the level its coordinate falls in.
func (c *lbfgsCore) placeLevels(n int) {
	if c.levels == nil {
		return
	}
	for i := range n {
		u := c.candidates[i*c.dim : (i+1)*c.dim]
		if c.combos > 0 && i < c.raw {
			combo := i % c.combos
			for j, l := range c.levels {
				if l > 0 {
					u[j] = levelCoordinate(combo%l, l)
					combo /= l
				}
			}
			continue
		}
		c.snapLevels(u)
	}
}

// snapLevels moves u's categorical components to the middle of their levels.
func (c *lbfgsCore) snapLevels(u []float64) {
	for j, l := range c.levels {
		if l > 0 {
			u[j] = levelCoordinate(levelOf(u[j], l), l)
		}
	}
}

// combination numbers the level combination of u, mixed radix in component
// order.
func (c *lbfgsCore) combination(u []float64) int {
	combo, radix := 0, 1
	for j, l := range c.levels {
		if l > 0 {
			combo += radix * levelOf(u[j], l)
			radix *= l
		}
	}
	return combo
}

func (pw *worker) resetCombos() {
	for k := range pw.comboIndex {
		pw.comboIndex[k], pw.comboValue[k] = -1, math.Inf(-1)
	}
}

// recordCombo keeps candidate i, of value v at u, if it is the best of its
// combination the worker has scored.
func (pw *worker) recordCombo(u []float64, i int, v float64) {
	k := pw.core.combination(u)
	if pw.comboIndex[k] < 0 || better(v, i, pw.comboValue[k], pw.comboIndex[k]) {
		pw.comboIndex[k], pw.comboValue[k] = i, v
	}
}

// addComboBests appends to the refinements the best candidate of each
// combination that the best restarts leave out, in combination order; the
// workers' bests are merged by value, ties to the lower index, so the
// result does not depend on which worker scored what.
func (c *lbfgsCore) addComboBests() {
	for k := range c.combos {
		index, value := -1, math.Inf(-1)
		for w := range c.perWorker {
			pw := &c.perWorker[w]
			if i := pw.comboIndex[k]; i >= 0 && (index < 0 || better(pw.comboValue[k], i, value, index)) {
				index, value = i, pw.comboValue[k]
			}
		}
		if index < 0 || slices.Contains(c.topIndex[:c.nTop], index) {
			continue
		}
		c.topIndex[c.nTop], c.topValue[c.nTop] = index, value
		c.nTop++
	}
}

// moveLevels improves the refined point x, of the given value, by changes
// of level: each round tries every other level of every categorical
// component (value only), takes the best change if it improves the value
// and refines the continuous components from there. It returns the value
// at x.
func (pw *worker) moveLevels(x []float64, value float64) float64 {
	c := pw.core
	trial := pw.moved
	for range maxLevelRounds {
		bestValue, bestComponent, bestCoordinate := value, -1, 0.0
		for j, l := range c.levels {
			if l == 0 {
				continue
			}
			current := levelOf(x[j], l)
			for level := range l {
				if level == current {
					continue
				}
				copy(trial, x)
				trial[j] = levelCoordinate(level, l)
				if c.feasible != nil && !c.feasible(trial) {
					continue
				}
				if v := c.fg(pw.index, trial, nil); v > bestValue {
					bestValue, bestComponent, bestCoordinate = v, j, trial[j]
				}
			}
		}
		if bestComponent < 0 {
			return value
		}
		x[bestComponent], value = bestCoordinate, bestValue
		copy(trial, x)
		if res, err := pw.optimiser.Minimize(pw.minimise, trial, c.lo, c.hi); err == nil && -res.F > value {
			c.snapLevels(trial)
			if c.feasible == nil || c.feasible(trial) {
				if v := c.fg(pw.index, trial, nil); v > value {
					copy(x, trial)
					value = v
				}
			}
		}
	}
	return value
}
