package uncertain

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestClosedFormsReduceToSE(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ls     []float64
		a, b   []float64
		zeroSa []float64 // nil or an explicit zero matrix
	}{
		{"1d", []float64{0.3}, []float64{0.1}, []float64{0.5}, nil},
		{"1d-same", []float64{2}, []float64{1}, []float64{1}, diag(0)},
		{"2d", []float64{0.5, 1.5}, []float64{0, 1}, []float64{0.7, -0.2}, diag(0, 0)},
		{"3d", []float64{1, 0.1, 3}, []float64{0.2, 0.3, 0.4}, []float64{0.25, 0.33, -1}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const s2 = 1.7
			want := seKernel(s2, tc.ls).Eval(tc.a, tc.b)
			w := make([]float64, WorkLen(len(tc.ls)))
			relClose(t, "IntegralSE", IntegralSE(s2, tc.ls, tc.a, tc.zeroSa, tc.b, nil, w), want, 1e-14)
			relClose(t, "SymmetricKLSE", SymmetricKLSE(s2, tc.ls, tc.a, tc.zeroSa, tc.b, nil, w), want, 1e-14)
		})
	}
}

// TestClosedForms1D checks both closed forms against their scalar formulas:
// with L = ℓ², IntegralSE = s2·ℓ/sqrt(L+sa+sb)·exp(−Δ²/(2(L+sa+sb))), and for
// A = sa+L, B = sb+L, SKL = ½(A/B + B/A − 2 + Δ²(1/A + 1/B)).
func TestClosedForms1D(t *testing.T) {
	for _, tc := range []struct{ s2, l, ma, sa, mb, sb float64 }{
		{1, 0.2, 0, 0.01, 0.3, 0.04},
		{2.5, 1, 1, 0, -1, 0.5},
		{0.3, 0.05, 0.5, 1e-4, 0.5, 1e-4},
	} {
		w := make([]float64, WorkLen(1))
		ls, ma, mb, sa, sb := []float64{tc.l}, []float64{tc.ma}, []float64{tc.mb}, []float64{tc.sa}, []float64{tc.sb}
		L, dm := tc.l*tc.l, tc.ma-tc.mb
		c := L + tc.sa + tc.sb
		relClose(t, "IntegralSE", IntegralSE(tc.s2, ls, ma, sa, mb, sb, w), tc.s2*tc.l/math.Sqrt(c)*math.Exp(-dm*dm/(2*c)), 1e-14)
		A, B := tc.sa+L, tc.sb+L
		skl := 0.5 * (A/B + B/A - 2 + dm*dm*(1/A+1/B))
		relClose(t, "SymmetricKLSE", SymmetricKLSE(tc.s2, ls, ma, sa, mb, sb, w), tc.s2*math.Exp(-0.5*skl), 1e-13)
	}
}

// TestSymmetricKLSEDense compares with KL divergences computed by dense
// inverses and determinants (gonum), full covariances in d = 3.
func TestSymmetricKLSEDense(t *testing.T) {
	const s2 = 0.8
	ls := []float64{0.5, 1, 2}
	ma, mb := []float64{0.1, -0.4, 1}, []float64{0.3, 0.2, 0.5}
	Sa := []float64{0.2, 0.05, 0.01, 0.05, 0.3, -0.1, 0.01, -0.1, 0.4}
	Sb := []float64{0.1, 0, 0.02, 0, 0.05, 0, 0.02, 0, 0.3}
	kl := func(m0, S0, m1, S1 []float64) float64 {
		A, B := mat.NewDense(3, 3, nil), mat.NewDense(3, 3, nil)
		for i := range 3 {
			for j := range 3 {
				A.Set(i, j, S0[i*3+j])
				B.Set(i, j, S1[i*3+j])
			}
			A.Set(i, i, A.At(i, i)+ls[i]*ls[i])
			B.Set(i, i, B.At(i, i)+ls[i]*ls[i])
		}
		var Binv, prod mat.Dense
		if err := Binv.Inverse(B); err != nil {
			t.Fatal(err)
		}
		prod.Mul(&Binv, A)
		dm := mat.NewVecDense(3, []float64{m1[0] - m0[0], m1[1] - m0[1], m1[2] - m0[2]})
		return 0.5 * (mat.Trace(&prod) + mat.Inner(dm, &Binv, dm) - 3 + math.Log(mat.Det(B)/mat.Det(A)))
	}
	want := s2 * math.Exp(-0.5*(kl(ma, Sa, mb, Sb)+kl(mb, Sb, ma, Sa)))
	w := make([]float64, WorkLen(3))
	relClose(t, "SymmetricKLSE", SymmetricKLSE(s2, ls, ma, Sa, mb, Sb, w), want, 1e-12)
	relClose(t, "SymmetricKLSE swapped", SymmetricKLSE(s2, ls, mb, Sb, ma, Sa, w), want, 1e-12)
}

// TestIntegralSEMonteCarlo compares Eq. 80 with MeanKernel over 2000×2000
// independent draws. The tolerance is 5 standard errors of that estimate,
// SE² ≈ Var_i(ḡ(u_i))/m + Var_j(h̄(v_j))/m with ḡ, h̄ the row and column
// means of K(u, v) (the leading terms of the variance of a two-sample
// V-statistic).
func TestIntegralSEMonteCarlo(t *testing.T) {
	const m = 2000
	for _, tc := range []struct {
		name string
		ls   []float64
		p, q gaussian
	}{
		{"1d", []float64{0.3}, gaussian{[]float64{0.2}, diag(0.04)}, gaussian{[]float64{0.5}, diag(0.09)}},
		{"1d-same-mean", []float64{0.1}, gaussian{[]float64{0.5}, diag(0.01)}, gaussian{[]float64{0.5}, diag(0.0025)}},
		{"2d-diag", []float64{0.4, 0.2}, gaussian{[]float64{0, 0}, diag(0.05, 0.02)}, gaussian{[]float64{0.3, -0.1}, diag(0.01, 0.03)}},
		{"2d-full", []float64{0.3, 0.5}, gaussian{[]float64{0.1, 0.2}, []float64{0.04, 0.03, 0.03, 0.09}}, gaussian{[]float64{0.3, 0}, []float64{0.05, -0.02, -0.02, 0.02}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const s2 = 1.3
			d := len(tc.ls)
			k := seKernel(s2, tc.ls)
			u, v := tc.p.samples(m, 11), tc.q.samples(m, 12)
			got := MeanKernel(k, u, v, d)
			rows, cols := make([]float64, m), make([]float64, m)
			for i := range m {
				for j := range m {
					kij := k.Eval(u[i*d:(i+1)*d], v[j*d:(j+1)*d])
					rows[i] += kij / m
					cols[j] += kij / m
				}
			}
			se := math.Sqrt(variance(rows)/m + variance(cols)/m)
			want := IntegralSE(s2, tc.ls, tc.p.mean, tc.p.cov, tc.q.mean, tc.q.cov, make([]float64, WorkLen(d)))
			t.Logf("MC %.5f, Eq. 80 %.5f, |diff| = %.2f SE", got, want, math.Abs(got-want)/se)
			if math.Abs(got-want) > 5*se {
				t.Errorf("MeanKernel %.6f vs IntegralSE %.6f: differ by more than 5 SE = %.2g", got, want, 5*se)
			}
		})
	}
}

func variance(x []float64) float64 {
	var mean, s float64
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		s += (v - mean) * (v - mean)
	}
	return s / float64(len(x)-1)
}

func TestClosedFormsPanicOnIndefiniteCovariance(t *testing.T) {
	w := make([]float64, WorkLen(1))
	for name, f := range map[string]func(){
		"IntegralSE":    func() { IntegralSE(1, []float64{1}, []float64{0}, []float64{-3}, []float64{0}, nil, w) },
		"SymmetricKLSE": func() { SymmetricKLSE(1, []float64{1}, []float64{0}, nil, []float64{0}, []float64{-3}, w) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic for a negative variance", name)
				}
			}()
			f()
		}()
	}
}
