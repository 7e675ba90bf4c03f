package search

import (
	"math"
	"runtime"
	"testing"
)

// separable is Σ_j cos(14π u_j) − 4(u_j − 5/7)², a sum of one function per
// component, each with seven peaks of which the highest is at u_j = 5/7:
// 10 components have 7¹⁰ local maxima, the global one of value 10.
func separable(_ int, u, grad []float64) float64 {
	v := 0.0
	for j, x := range u {
		v += math.Cos(14*math.Pi*x) - 4*(x-5.0/7)*(x-5.0/7)
		if grad != nil {
			grad[j] = -14*math.Pi*math.Sin(14*math.Pi*x) - 8*(x-5.0/7)
		}
	}
	return v
}

// TestSweepsFindTheBestAlongEachComponent: on a separable function with a
// local maximum per peak combination, gradient refinements from a few
// starts end at local maxima, while two coordinate sweeps reach the global
// one to within the last refinement's tolerance; the sweeps keep to the
// feasible set and the box, give the same answer on one worker and on two,
// and allocate nothing.
func TestSweepsFindTheBestAlongEachComponent(t *testing.T) {
	const dim = 10
	u := make([]float64, dim)
	plain, err := NewLBFGS(dim, 64, 2).Maximize(separable, nil, 1, u)
	if err != nil {
		t.Fatal(err)
	}
	if plain > dim-0.5 {
		t.Fatalf("without sweeps the search found %v: the test needs a function it cannot solve", plain)
	}
	var answers [][]float64
	for _, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		s := NewLBFGS(dim, 64, 2).WithSweeps(2)
		runtime.GOMAXPROCS(prev)
		swept := make([]float64, dim)
		v, err := s.Maximize(separable, nil, 1, swept)
		if err != nil {
			t.Fatal(err)
		}
		if v < dim-1e-6 {
			t.Errorf("GOMAXPROCS %d: with sweeps %v at %v, want %d", procs, v, swept, dim)
		}
		answers = append(answers, swept)
		// Kept to the box and to the feasible set: u_0 <= 0.6 forbids
		// its best peak, so u_0 ends at the next, 4/7.
		s.SetBox(make([]float64, dim), []float64{0.9, 1, 1, 1, 1, 1, 1, 1, 1, 1}, nil)
		feasible := func(u []float64) bool { return u[0] <= 0.6 }
		if _, err := s.Maximize(separable, feasible, 2, swept); err != nil {
			t.Fatal(err)
		}
		if math.Abs(swept[0]-4.0/7) > 1e-3 || math.Abs(swept[1]-5.0/7) > 1e-3 {
			t.Errorf("GOMAXPROCS %d: u_0 <= 0.6: %v, want 4/7 and 5/7 first", procs, swept)
		}
		seed := uint64(3)
		if allocs := testing.AllocsPerRun(3, func() {
			seed++
			if _, err := s.Maximize(separable, feasible, seed, swept); err != nil {
				t.Fatal(err)
			}
		}); allocs != 0 {
			t.Errorf("GOMAXPROCS %d: %v allocations per search with sweeps", procs, allocs)
		}
	}
	for j := range answers[0] {
		if answers[0][j] != answers[1][j] {
			t.Fatalf("one worker found %v, two %v", answers[0], answers[1])
		}
	}
}

// separableSweep scores sweeps of separable through a Sweep, as an additive
// model would: it keeps the base point's terms and changes one per value.
type separableSweep struct {
	base, terms []float64
	total       float64
}

func separableTerm(x float64) float64 { return math.Cos(14*math.Pi*x) - 4*(x-5.0/7)*(x-5.0/7) }

func (p *separableSweep) setBase(base []float64, changed int) {
	if changed < 0 {
		copy(p.base, base)
		p.total = 0
		for j, x := range base {
			p.terms[j] = separableTerm(x)
			p.total += p.terms[j]
		}
		return
	}
	p.base[changed] = base[changed]
	t := separableTerm(base[changed])
	p.total += t - p.terms[changed]
	p.terms[changed] = t
}

func (p *separableSweep) values(_, j int, values, out []float64) {
	for g, v := range values {
		out[g] = p.total - p.terms[j] + separableTerm(v)
	}
}

// TestSweepScoresComponents: a search whose sweeps are scored through a
// Sweep finds what the rows' scores find, within the box and the feasible
// set, on one worker and two, without allocating.
func TestSweepScoresComponents(t *testing.T) {
	const dim = 10
	p := &separableSweep{base: make([]float64, dim), terms: make([]float64, dim)}
	sweep := Sweep{Base: p.setBase, Values: p.values}
	feasible := func(u []float64) bool { return u[0] <= 0.6 }
	for _, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		rows, swept := NewLBFGS(dim, 64, 2).WithSweeps(2), NewLBFGS(dim, 64, 2).WithSweeps(2)
		runtime.GOMAXPROCS(prev)
		for seed, feasible := range []func([]float64) bool{nil, feasible} {
			want, got := make([]float64, dim), make([]float64, dim)
			vWant, err := rows.Maximize(separable, feasible, uint64(seed), want)
			if err != nil {
				t.Fatal(err)
			}
			vGot, err := swept.MaximizeSwept(separable, nil, sweep, feasible, uint64(seed), got)
			if err != nil {
				t.Fatal(err)
			}
			for j := range want {
				if math.Abs(got[j]-want[j]) > 1e-9 {
					t.Fatalf("GOMAXPROCS %d, seed %d: swept by components %v (%v), by rows %v (%v)", procs, seed, got, vGot, want, vWant)
				}
			}
			if feasible != nil && !feasible(got) {
				t.Errorf("GOMAXPROCS %d: %v is not feasible", procs, got)
			}
		}
		out, seed := make([]float64, dim), uint64(5)
		if allocs := testing.AllocsPerRun(3, func() {
			seed++
			if _, err := swept.MaximizeSwept(separable, nil, sweep, feasible, seed, out); err != nil {
				t.Fatal(err)
			}
		}); allocs != 0 {
			t.Errorf("GOMAXPROCS %d: %v allocations per search swept by components", procs, allocs)
		}
	}
}
