package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bocdev/boc/runtime/gp"
	"github.com/bocdev/boc/runtime/kernel"
	"gonum.org/v1/gonum/mat"
)

// TestPosteriorMatchesSklearnFormula checks boc's batch posterior against a
// dense solve of scikit-learn's formulas with normalize_y=True: y
// standardised with its mean and population deviation, WhiteKernel noise
// plus alpha on the diagonal, both in standardised units.
func TestPosteriorMatchesSklearnFormula(t *testing.T) {
	const n, m = 60, 25
	d := generate(n, m, 3)
	p, err := newPredictor(d)
	if err != nil {
		t.Fatal(err)
	}
	p.workers = gp.NewBatchWorkers(2)
	defer p.workers.Close()
	p.fill(3)
	p.posterior()

	shift, scale := 0.0, deviation(d.y)
	for _, y := range d.y {
		shift += y
	}
	shift /= n
	a := mat.NewSymDense(n, nil)
	z := mat.NewVecDense(n, nil)
	for i := range n {
		for j := range i + 1 {
			a.SetSym(i, j, seKernel(&d.train[i], &d.train[j]))
		}
		a.SetSym(i, i, a.At(i, i)+noise+sklearnAlpha)
		z.SetVec(i, (d.y[i]-shift)/scale)
	}
	var chol mat.Cholesky
	if !chol.Factorize(a) {
		t.Fatal("reference matrix is not positive definite")
	}
	k := mat.NewVecDense(n, nil)
	w := mat.NewVecDense(n, nil)
	alpha := mat.NewVecDense(n, nil)
	if err := chol.SolveVecTo(alpha, z); err != nil {
		t.Fatal(err)
	}
	for j := range m {
		for i := range n {
			k.SetVec(i, seKernel(&d.test[j], &d.train[i]))
		}
		if err := chol.SolveVecTo(w, k); err != nil {
			t.Fatal(err)
		}
		wantMean := shift + scale*mat.Dot(k, alpha)
		wantVar := scale * scale * (1 - mat.Dot(k, w))
		if math.Abs(p.mean[j]-wantMean) > 1e-9*scale {
			t.Errorf("point %d: mean %v, reference %v", j, p.mean[j], wantMean)
		}
		if math.Abs(p.variance[j]-wantVar) > 1e-9*scale*scale {
			t.Errorf("point %d: variance %v, reference %v", j, p.variance[j], wantVar)
		}
	}
}

// TestEmittedFormMatchesGenericKernel checks the straight-line kernel with
// math.Exp against its fastexp rows and against runtime/kernel on the
// benchmark's data, fill against fill.
func TestEmittedFormMatchesGenericKernel(t *testing.T) {
	d := generate(40, 30, 5)
	p, err := newPredictor(d)
	if err != nil {
		t.Fatal(err)
	}
	p.fillMathExp(2)
	want := append([]float64(nil), p.kstar...)
	fills := []struct {
		name string
		fill func()
	}{
		{"fastexp rows", func() { p.fill(3) }},
		{"generic", func() { p.fillGeneric(3, kernel.NewStationary(kernel.SE, 1, []float64{lengthscale})) }},
	}
	for _, f := range fills {
		clear(p.kstar)
		f.fill()
		for i, v := range p.kstar {
			if math.Abs(v-want[i]) > 1e-14*want[i] {
				t.Fatalf("%s: entry %d: %v, emitted form with math.Exp %v", f.name, i, v, want[i])
			}
		}
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, b := generate(5, 7, 9), generate(5, 7, 9)
	if a.train[4] != b.train[4] || a.test[6] != b.test[6] || a.y[2] != b.y[2] {
		t.Error("the same seed gave different data")
	}
	if c := generate(5, 7, 10); c.train[0] == a.train[0] {
		t.Error("another seed gave the same data")
	}
}

// TestRunWritesFiles runs the command on a small problem and checks the
// files the Python side reads.
func TestRunWritesFiles(t *testing.T) {
	dir := t.TempDir()
	if err := run(dir, 20, 11, 2, 2, 1); err != nil {
		t.Fatal(err)
	}
	for name, rows := range map[string]int{"train.csv": 20, "test.csv": 11, "boc.csv": 11} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(string(data), "\n"); got != rows {
			t.Errorf("%s has %d rows, want %d", name, got, rows)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "boc.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got timings
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.N != 20 || got.M != 11 || !(got.Total > 0) || !(got.Fill > 0) || !(got.FillMathExp > 0) {
		t.Errorf("boc.json = %+v", got)
	}
	if err := run(dir, 0, 1, 1, 1, 1); err == nil {
		t.Error("no error for -n 0")
	}
}
