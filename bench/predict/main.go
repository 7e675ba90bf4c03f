// Command predict times boc's posterior mean and variance at 10,000 query
// points with n = 500 training points in [0,1]^4 and a fixed squared-
// exponential kernel (lengthscale 0.3, unit signal variance, noise variance
// 1e-4 on the standardised scale), the workload bench/sklearn_predict.py
// times for scikit-learn's GaussianProcessRegressor on the same data.
//
// It generates the data deterministically, writes train.csv, test.csv and
// boc.csv (boc's posterior mean and standard deviation) and boc.json (the
// timings) into -out, and prints the timings. The measured time is what an
// emitted optimiser does to predict: fill the 10,000×500 kernel matrix with
// the straight-line kernel code boc emits for this problem, one row at a
// time (the exponents of a row, then fastexp.Exp over the row), then
// gp.BatchWorkers.Predict. The fill is also timed with one math.Exp per
// kernel value (the emitted kernels' scalar form) and through the generic
// runtime/kernel path. Each time is the best of -runs runs.
//
// Usage (from the repository root; bench/predict.sh runs both sides):
//
//	go run ./bench/predict -out /tmp/bocpredict
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bocdev/boc/runtime/fastexp"
	"github.com/bocdev/boc/runtime/gp"
	"github.com/bocdev/boc/runtime/kernel"
)

const (
	dim         = 4
	lengthscale = 0.3
	// noise is the noise variance on the standardised scale, as
	// scikit-learn's WhiteKernel sees it with normalize_y=True; sklearnAlpha
	// is the regulariser GaussianProcessRegressor adds to the diagonal by
	// default. boc's GP takes noise in the units of y, so both are
	// multiplied by the variance of y.
	noise        = 1e-4
	sklearnAlpha = 1e-10
)

type point = [dim]float64

// dataset is the benchmark's training and query data.
type dataset struct {
	train []point
	y     []float64
	test  []point
}

// generate draws n training and m query points uniformly from [0,1]^4 with a
// PCG generator seeded with seed, and evaluates a smooth function at the
// training points.
func generate(n, m int, seed uint64) *dataset {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	draw := func(k int) []point {
		ps := make([]point, k)
		for i := range ps {
			for c := range ps[i] {
				ps[i][c] = rng.Float64()
			}
		}
		return ps
	}
	d := &dataset{train: draw(n), test: draw(m)}
	d.y = make([]float64, n)
	for i, x := range d.train {
		d.y[i] = math.Sin(3*x[0]) + math.Cos(2*x[1])*x[2] + 0.5*x[3]*x[3]
	}
	return d
}

// seExponent is the exponent of the squared-exponential kernel in the
// straight-line form boc emits for this problem (stdlib's se emitter:
// inverse lengthscales folded into literals, unrolled over the four
// components).
func seExponent(a, b *point) float64 {
	d0 := (a[0] - b[0]) * 3.3333333333333335
	d1 := (a[1] - b[1]) * 3.3333333333333335
	d2 := (a[2] - b[2]) * 3.3333333333333335
	d3 := (a[3] - b[3]) * 3.3333333333333335
	r2 := d0*d0 + d1*d1 + d2*d2 + d3*d3
	return -0.5 * r2
}

// seKernel is the emitted kernel for one pair of points.
func seKernel(a, b *point) float64 { return math.Exp(seExponent(a, b)) }

// predictor holds the GP fitted to a dataset and the buffers of a batch
// prediction at its query points.
type predictor struct {
	data                         *dataset
	model                        *gp.GP
	workers                      *gp.BatchWorkers
	kstar, kself, mean, variance []float64
}

// newPredictor conditions a GP on d's training data. After the last Add it
// refactors the GP so that y is standardised with the deviation of all of
// it, as scikit-learn's normalize_y does.
func newPredictor(d *dataset) (*predictor, error) {
	n, m := len(d.train), len(d.test)
	p := &predictor{
		data:     d,
		model:    gp.New(n),
		kstar:    make([]float64, m*n),
		kself:    make([]float64, m),
		mean:     make([]float64, m),
		variance: make([]float64, m),
	}
	sd := deviation(d.y)
	noiseVar := (noise + sklearnAlpha) * sd * sd
	kvec := make([]float64, n)
	for i := range d.train {
		for j := range i {
			kvec[j] = seKernel(&d.train[i], &d.train[j])
		}
		if err := p.model.Add(kvec[:i], seKernel(&d.train[i], &d.train[i]), d.y[i], noiseVar); err != nil {
			return nil, err
		}
	}
	if err := p.model.Refactor(); err != nil {
		return nil, err
	}
	return p, nil
}

// deviation is the population standard deviation, numpy's np.std.
func deviation(y []float64) float64 {
	mean := 0.0
	for _, v := range y {
		mean += v
	}
	mean /= float64(len(y))
	ss := 0.0
	for _, v := range y {
		ss += (v - mean) * (v - mean)
	}
	return math.Sqrt(ss / float64(len(y)))
}

// parallel runs body on contiguous shares of [0, m) on workers goroutines.
func parallel(m, workers int, body func(lo, hi int)) {
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*m/workers, (w+1)*m/workers
		wg.Go(func() { body(lo, hi) })
	}
	wg.Wait()
}

// fill writes the query points' kernel vectors and prior variances with the
// specialised kernel: a row's exponents, then their exponentials at once.
func (p *predictor) fill(workers int) {
	train, n := p.data.train, len(p.data.train)
	parallel(len(p.data.test), workers, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			x := &p.data.test[j]
			row := p.kstar[j*n : (j+1)*n]
			for i := range row {
				row[i] = seExponent(x, &train[i])
			}
			fastexp.Exp(row, row)
			p.kself[j] = seKernel(x, x)
		}
	})
}

// fillMathExp is fill with one math.Exp per kernel value.
func (p *predictor) fillMathExp(workers int) {
	train, n := p.data.train, len(p.data.train)
	parallel(len(p.data.test), workers, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			x := &p.data.test[j]
			row := p.kstar[j*n : (j+1)*n]
			for i := range row {
				row[i] = seKernel(x, &train[i])
			}
			p.kself[j] = seKernel(x, x)
		}
	})
}

// fillGeneric is fill through the generic kernel k.
func (p *predictor) fillGeneric(workers int, k kernel.Kernel) {
	train, n := p.data.train, len(p.data.train)
	parallel(len(p.data.test), workers, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			x := p.data.test[j][:]
			row := p.kstar[j*n : (j+1)*n]
			for i := range row {
				row[i] = k.Eval(x, train[i][:])
			}
			p.kself[j] = k.Eval(x, x)
		}
	})
}

// posterior computes the mean and variance at every query point from the
// filled kernel matrix on p.workers.
func (p *predictor) posterior() {
	p.workers.Predict(p.model, p.kstar, len(p.data.test), p.kself, p.mean, p.variance)
}

// timings are the best times of the runs, in seconds.
type timings struct {
	N, M, Dim, Workers, Runs int
	GoVersion                string
	Fill                     float64 `json:"fill_s"`          // specialised kernel matrix, fastexp
	FillMathExp              float64 `json:"fill_math_exp_s"` // the same with math.Exp
	FillGeneric              float64 `json:"fill_generic_s"`  // the same through runtime/kernel
	Posterior                float64 `json:"posterior_s"`     // BatchWorkers.Predict
	Total                    float64 `json:"total_s"`         // fill + posterior in one run
}

// measure runs the prediction runs times and returns the best times.
func (p *predictor) measure(runs, workers int) timings {
	t := timings{N: len(p.data.train), M: len(p.data.test), Dim: dim, Workers: workers, Runs: runs,
		GoVersion: runtime.Version(), Fill: math.Inf(1), FillMathExp: math.Inf(1), FillGeneric: math.Inf(1), Posterior: math.Inf(1), Total: math.Inf(1)}
	generic := kernel.NewStationary(kernel.SE, 1, []float64{lengthscale})
	for range runs {
		start := time.Now()
		p.fillGeneric(workers, generic)
		t.FillGeneric = min(t.FillGeneric, time.Since(start).Seconds())

		start = time.Now()
		p.fillMathExp(workers)
		t.FillMathExp = min(t.FillMathExp, time.Since(start).Seconds())

		start = time.Now()
		p.fill(workers)
		filled := time.Now()
		p.posterior()
		done := time.Now()
		t.Fill = min(t.Fill, filled.Sub(start).Seconds())
		t.Posterior = min(t.Posterior, done.Sub(filled).Seconds())
		t.Total = min(t.Total, done.Sub(start).Seconds())
	}
	return t
}

// writeCSV writes rows of numbers with full precision.
func writeCSV(path string, rows int, row func(i int) []float64) error {
	var b strings.Builder
	for i := range rows {
		for c, v := range row(i) {
			if c > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// write stores the data, boc's predictions and the timings in dir.
func (p *predictor) write(dir string, t timings) error {
	d := p.data
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := []struct {
		name string
		rows int
		row  func(i int) []float64
	}{
		{"train.csv", len(d.train), func(i int) []float64 { return append(d.train[i][:], d.y[i]) }},
		{"test.csv", len(d.test), func(i int) []float64 { return d.test[i][:] }},
		{"boc.csv", len(d.test), func(i int) []float64 { return []float64{p.mean[i], math.Sqrt(p.variance[i])} }},
	}
	for _, f := range files {
		if err := writeCSV(filepath.Join(dir, f.name), f.rows, f.row); err != nil {
			return err
		}
	}
	js, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "boc.json"), append(js, '\n'), 0o644)
}

func main() {
	out := flag.String("out", ".", "write the data, boc's predictions and timings into `DIR`")
	n := flag.Int("n", 500, "training points")
	m := flag.Int("m", 10000, "query points")
	runs := flag.Int("runs", 7, "time the best of `R` runs")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "goroutines for the kernel fill and the posterior")
	seed := flag.Uint64("seed", 1, "seed of the data")
	flag.Parse()
	if err := run(*out, *n, *m, *runs, *workers, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "predict:", err)
		os.Exit(1)
	}
}

func run(out string, n, m, runs, workers int, seed uint64) error {
	if n < 1 || m < 1 || runs < 1 || workers < 1 {
		return fmt.Errorf("-n, -m, -runs and -workers must be positive")
	}
	p, err := newPredictor(generate(n, m, seed))
	if err != nil {
		return err
	}
	p.workers = gp.NewBatchWorkers(workers)
	defer p.workers.Close()
	t := p.measure(runs, workers)
	fmt.Printf("boc: n = %d, %d query points, d = %d, %d workers, best of %d runs (%s)\n", n, m, dim, workers, runs, t.GoVersion)
	fmt.Printf("  kernel matrix, emitted kernel, fastexp rows: %8.2f ms\n", 1e3*t.Fill)
	fmt.Printf("  kernel matrix, emitted kernel, math.Exp:     %8.2f ms (%.2f× the fastexp rows' time)\n", 1e3*t.FillMathExp, t.FillMathExp/t.Fill)
	fmt.Printf("  kernel matrix, generic runtime/kernel:       %8.2f ms (%.2f× the emitted math.Exp kernel's time)\n", 1e3*t.FillGeneric, t.FillGeneric/t.FillMathExp)
	fmt.Printf("  posterior mean and variance (PredictBatch):  %8.2f ms\n", 1e3*t.Posterior)
	fmt.Printf("  prediction total (fill + posterior):         %8.2f ms\n", 1e3*t.Total)
	return p.write(out, t)
}
