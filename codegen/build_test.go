package codegen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bocdev/boc/dsl/ir"
)

// The golden programs are built and run in ONE temporary module, one
// sub-package per case, with one go test of the libraries and one of the
// commands, so that the whole test stays within a few minutes on two cores
// and reruns hit the build cache.

func TestMain(m *testing.M) {
	flag := m.Run()
	if module != nil {
		os.RemoveAll(module.dir)
	}
	os.Exit(flag)
}

// goldenBuild is the built module.
type goldenBuild struct {
	dir   string // module root
	bin   string // the built programs, one per case, named after it
	cases []string
	err   error
}

var (
	moduleOnce sync.Once
	module     *goldenBuild
)

// builtModule builds the golden module once per test binary.
func builtModule(t *testing.T) *goldenBuild {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the emitted programs; skipped with -short")
	}
	moduleOnce.Do(func() { module = buildModule(t) })
	if module.err != nil {
		t.Fatal(module.err)
	}
	return module
}

// goEnv is the environment of the go commands: module mode with the repo
// replaced in, and the local toolchain only.
func goEnv() []string {
	return append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
}

func buildModule(t *testing.T) *goldenBuild {
	b := &goldenBuild{cases: goldenCases(t)}
	dir, err := os.MkdirTemp("", "boc-golden-")
	if err != nil {
		b.err = err
		return b
	}
	b.dir, b.bin = dir, filepath.Join(dir, "bin")
	b.err = b.write(t)
	if b.err == nil {
		b.err = b.goCommands()
	}
	return b
}

// write lays out the module: go.mod and go.sum, for each case its library,
// its program under cmd/NAME and an allocation test, and the helper
// programs the tests run.
func (b *goldenBuild) write(t *testing.T) error {
	root, err := filepath.Abs("..")
	if err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	gomod := fmt.Sprintf("module %s\n\ngo 1.26\n\nrequire github.com/bocdev/boc v0.0.0\n\nreplace github.com/bocdev/boc => %s\n", goldenModulePath, root)
	files := map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum}
	for _, name := range b.cases {
		out := generateCase(t, name)
		for _, f := range out.Library {
			files[filepath.Join(name, f.Name)] = f.Content
		}
		for _, f := range out.Main {
			files[filepath.Join(name, "cmd", name, f.Name)] = f.Content
		}
		if several(out) {
			files[filepath.Join(name, "several_test.go")] = severalTest(out)
		} else {
			files[filepath.Join(name, "alloc_test.go")] = allocTest(name, out)
			files[filepath.Join(name, "pending_test.go")] = pendingTest(name, out)
		}
		files[filepath.Join(name, "cmd", name, "replay_test.go")] = replayTest(goldenModulePath+"/"+name, out)
		files[filepath.Join(name, "cmd", name, "program_test.go")] = programTestMain
		if simulates(out) {
			files[filepath.Join(name, "cmd", name, "journal_test.go")] = journalRunTest
		}
		// A warped model holds the reported variances in its warped units.
		if reportsNoise(out) && !strings.Contains(string(out.Library[0].Content), "func (o *Optimizer) rewarp(") {
			files[filepath.Join(name, "reported_test.go")] = reportedNoiseTest(name, out)
		}
		if strings.Contains(string(out.Library[0].Content), "func (o *Optimizer) ObserveLocalised(") {
			files[filepath.Join(name, "localised_test.go")] = localisedTest(name, out)
		}
		if name == "ugp_igp" {
			files[filepath.Join(name, "theory_test.go")] = theoryBetaTest(out)
		}
		if strings.Contains(string(out.Library[0].Content), "func (o *Optimizer) scoreAt(") {
			files[filepath.Join(name, "smooth_test.go")] = smoothTest(name, out)
		}
		if strings.Contains(string(out.Library[0].Content), "\nfunc zeroInactive(") {
			files[filepath.Join(name, "flat_test.go")] = flatTest(out)
		}
		if strings.Contains(string(out.Library[0].Content), "func (o *Optimizer) rewarp(") {
			files[filepath.Join(name, "warp_test.go")] = warpTest(out)
		}
		// runtime/multi's trust region has its own tests.
		if strings.Contains(string(out.Library[0].Content), "search.NewRegions(") {
			files[filepath.Join(name, "trust_test.go")] = trustTest(out)
		}
		if strings.Contains(string(out.Library[0].Content), "NewComponents(") {
			files[filepath.Join(name, "sweep_test.go")] = sweepTest(out)
		}
		if strings.Contains(string(out.Library[0].Content), "subset.New(") {
			files[filepath.Join(name, "local_test.go")] = localTest(out)
		}
	}
	probe, err := kernelProbe()
	if err != nil {
		return err
	}
	files[filepath.Join("kernelprobe", "main.go")] = probe
	files[filepath.Join("execsphere_objective", "main.go")] = []byte(execObjective)
	for name, content := range files {
		path := filepath.Join(b.dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (b *goldenBuild) goCommands() error {
	// The links, of every test binary and program, are most of the time:
	// each case's command is its test binary (programTestMain), which saves
	// a third of them, and without DWARF (-w) and the symbol table (-s)
	// they are faster (the latter about 10%). go vet of every case (about a
	// minute on two cores) is left to the repository's own go vet over the
	// emitted packages of bench/suggest.
	var libraries, commands []string
	for _, name := range b.cases {
		libraries = append(libraries, "./"+name)
		commands = append(commands, "./"+name+"/cmd/"+name)
	}
	dir := b.bin + string(filepath.Separator)
	for _, args := range [][]string{
		{"build", "-ldflags=-s -w", "-o", dir, "./kernelprobe", "./execsphere_objective"},
		append([]string{"test", "-vet=off", "-ldflags=-s -w"}, libraries...),
		// -o keeps the commands' test binaries, as bin/NAME.test, after
		// running them.
		append([]string{"test", "-vet=off", "-ldflags=-s -w", "-o", dir}, commands...),
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = b.dir, goEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %s in the golden module %s: %v\n%s", strings.Join(args, " "), b.dir, err, out)
		}
	}
	return nil
}

// programEnv, set, makes a case command's test binary run the command.
const programEnv = "BOC_GOLDEN_PROGRAM"

// programTestMain makes a case command's test binary the command itself
// when run with programEnv set, so that the module links no separate
// program.
var programTestMain = []byte(`package main

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	if os.Getenv("` + programEnv + `") != "" {
		main()
		return
	}
	os.Exit(m.Run())
}
`)

// allocTest is a test in the case's package: after New and a warm-up past
// the initial design, Suggest and Observe allocate nothing. Values come from
// a synthetic function so that the test needs no objective.
func allocTest(name string, out *Output) []byte {
	pkg := libraryPackage(out)
	refit := refitAllocTest(name, out)
	test := fmt.Sprintf(`package %s

import (
	"errors"
	"runtime"
	"testing"
)

func synthetic(x Point) float64 {
	y := 0.0
	for i, v := range x {
		y += float64(i+1) * v * v
	}
	return y
}

// step suggests and observes a point; a domain every point of which was
// evaluated is no failure.
func step(t *testing.T, o *Optimizer) {
	x, err := o.Suggest()
	if errors.Is(err, ErrExhausted) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := %s; err != nil {
		t.Fatal(err)
	}
}

func TestAllocationFree(t *testing.T) {
	o := New(Seed)
	for o.Evaluations() < min(InitialDesign+2, Budget-3) {
		step(t, o)
	}
	if a := testing.AllocsPerRun(2, func() {
		if _, err := o.Suggest(); err != nil && !errors.Is(err, ErrExhausted) {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("%s: Suggest allocates %%v times", a)
	}
	if a := testing.AllocsPerRun(2, func() { step(t, o) }); a != 0 {
		t.Errorf("%s: Suggest and Observe allocate %%v times", a)
	}
}
`, pkg, "observe(o, x)", name, name) + observeDecl(out) + refit
	if refit == "" {
		test = strings.Replace(test, "\t\"runtime\"\n", "", 1)
	}
	return []byte(test)
}

// flatTest is a test in the package of a case with conditional dimensions:
// one value observed everywhere makes the acquisition's maximiser a point
// evaluated already, again and again, so that the search explores where the
// model is least certain, scoring without gradients too; every suggestion
// must succeed.
func flatTest(out *Output) []byte {
	unscored := ""
	if strings.Contains(string(out.Library[0].Content), "func (o *Optimizer) sdGradAt(") {
		// The exploration's score without its gradient, directly.
		unscored = "\tvar u [Dim]float64\n\tfor i := range u {\n\t\tu[i] = 0.5\n\t}\n\to.sdGradAt(0, u[:], nil)\n"
	}
	return []byte(fmt.Sprintf(`package %s

import (
	"errors"
	"testing"
)

func TestFlatObjective(t *testing.T) {
	o := New(Seed)
	for o.Evaluations() < Budget {
		x, err := o.Suggest()
		if errors.Is(err, ErrExhausted) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Observe(x, 1); err != nil {
			t.Fatal(err)
		}
	}
%s}
`, libraryPackage(out), unscored))
}

// warpTest is a test in the package of a case whose model warps its
// outputs: after heavy-tailed values and the refits that warp them, the
// optimiser still reports in the objective's units, BestObserved the best
// value observed and Best a posterior mean at an evaluated point that
// agrees with the value observed there: to 1% (the values, in the
// thousands, dwarf any declared noise) and three posterior sds, which a
// learned residual variance (the additive kernel's) leaves between them.
func warpTest(out *Output) []byte {
	observe := "o.Observe(x, y)"
	if reportsNoise(out) {
		observe = "o.ObserveWithSD(x, y, 0.01)"
	}
	return []byte(fmt.Sprintf(`package %s

import (
	"math"
	"testing"
)

func TestWarpReportsInTheObjectivesUnits(t *testing.T) {
	o := New(Seed)
	observed := map[Point]float64{}
	best := math.Inf(1)
	if Maximize {
		best = math.Inf(-1)
	}
	for o.Evaluations() < min(Budget, InitialDesign+6) {
		x, err := o.Suggest()
		if err != nil {
			t.Fatal(err)
		}
		// A function of the point, so that a point played again (noise
		// declared) reads the same value.
		sum := 0.0
		for _, v := range x {
			sum += v
		}
		y := 1000 * math.Exp(4*math.Sin(7*sum))
		if err := %s; err != nil {
			t.Fatal(err)
		}
		observed[x] = y
		if Maximize == (y > best) {
			best = y
		}
	}
	if _, y, _ := o.BestObserved(); y != best {
		t.Errorf("BestObserved says %%v; the best value observed is %%v", y, best)
	}
	x, mean, _ := o.Best()
	_, sd, err := o.Posterior(x)
	if err != nil {
		t.Fatal(err)
	}
	if y := observed[x]; math.Abs(mean-y) > 1e-2*(1+math.Abs(y))+3*sd {
		t.Errorf("Best's posterior mean %%v (sd %%v) at %%v, observed %%v there", mean, sd, x, y)
	}
}
`, libraryPackage(out), observe))
}

// trustTest is a test in the package of a case whose search keeps to a
// trust region: every point Suggest returns after the design lies in the
// region's box of that search, the whole cube only when the region has no
// centre; the box shrinks on an objective that never improves, and the
// region restarts once it collapses.
func trustTest(out *Output) []byte {
	return []byte(fmt.Sprintf(`package %s

import "testing"

func TestSuggestionsStayInTheTrustRegion(t *testing.T) {
	o := New(Seed)
	for o.Evaluations() < min(Budget, InitialDesign+30) {
		x, err := o.Suggest()
		if err != nil {
			t.Fatal(err)
		}
		if o.Evaluations() >= InitialDesign {
			u, err := toUnit(x)
			if err != nil {
				t.Fatal(err)
			}
			inside := false
			for k := range o.regions.Len() {
				lo, hi, whole := o.regions.Box(k)
				inside = inside || whole || inBox(u[:], lo, hi)
			}
			if !inside {
				t.Fatalf("evaluation %%d at %%v: in none of the regions' boxes", o.Evaluations(), u)
			}
		}
		// Every value after the first is worse: the region only fails.
		y := float64(o.Evaluations())
		if Maximize {
			y = -y
		}
		if err := o.Observe(x, y); err != nil {
			t.Fatal(err)
		}
	}
	shrank := o.regions.Restarts() > 0
	for k := range o.regions.Len() {
		shrank = shrank || o.regions.Region(k).Length() < 0.8
	}
	if !shrank {
		t.Errorf("after 30 failures no region shrank or restarted")
	}
}

func inBox(u, lo, hi []float64) bool {
	for i := range u {
		if u[i] < lo[i]-1e-12 || u[i] > hi[i]+1e-12 {
			return false
		}
	}
	return true
}
`, libraryPackage(out)))
}

// sweepTest is a test in the package of a case whose sweeps are scored by
// component (plan.Optimizer.SweptByComponent): once the hyperparameters
// are refitted, the acquisition at a sweep's values, from the kernel's
// terms, is the acquisition at the same points scored as rows, at the
// sweeps' start and after the point moved along another component.
func sweepTest(out *Output) []byte {
	return []byte(fmt.Sprintf(`package %s

import (
	"math"
	"testing"
)

func TestSweepsByComponentScoreAsRows(t *testing.T) {
	o := New(Seed)
	for o.Evaluations() < min(Budget-1, InitialDesign+2) {
		x, err := o.Suggest()
		if err != nil {
			t.Fatal(err)
		}
		u, err := toUnit(x)
		if err != nil {
			t.Fatal(err)
		}
		y := 0.0
		for i, v := range u {
			y += math.Sin(5*v + float64(i))
		}
		if err := o.Observe(x, y); err != nil {
			t.Fatal(err)
		}
	}
	base := make([]float64, Dim)
	for i := range base {
		base[i] = math.Mod(0.37*float64(i+1), 1)
	}
	values := []float64{0, 0.21, 0.5, 0.93}
	check := func(along int) {
		got, want := make([]float64, len(values)), make([]float64, len(values))
		o.acquisitionSweepAt(0, along, values, got)
		rows := make([]float64, len(values)*Dim)
		for g, v := range values {
			copy(rows[g*Dim:], base)
			rows[g*Dim+along] = v
		}
		o.acquisitionBatchAt(0, rows, want)
		for g := range want {
			if math.Abs(got[g]-want[g]) > 1e-9*max(1, math.Abs(want[g])) {
				t.Errorf("component %%d at %%v: %%v from the kernel's terms, %%v as a row", along, values[g], got[g], want[g])
			}
		}
	}
	o.sweepBase(base, -1)
	check(0)
	check(Dim - 1)
	base[Dim/2] = 0.64
	o.sweepBase(base, Dim/2)
	check(0)
}
`, libraryPackage(out)))
}

// localTest is a test in the package of a case whose model is local: to
// the budget, the model never holds more than localSize observations, and
// once it holds a subset, that subset holds its centre (the trust region's,
// or without noise the best observed point), its values are the observations' own, every
// suggestion lies in the box the search was confined to, and a step,
// reselection included, allocates nothing. Its objective is wavy, so that
// the search never lands on an evaluated point, whose fallback (the point
// farthest from the data) may leave the box.
func localTest(out *Output) []byte {
	observe := "o.Observe(x, wavy(x))"
	if reportsNoise(out) {
		observe = "o.ObserveWithSD(x, wavy(x), 0.01)"
	}
	return []byte(fmt.Sprintf(`package %s

import (
	"math"
	"slices"
	"testing"
)

func wavy(x Point) float64 {
	y := 0.0
	for i, v := range x {
		y += math.Sin(3*v + float64(i))
	}
	return y
}

func observeWavy(o *Optimizer, x Point) error { return %s }

func TestLocalModel(t *testing.T) {
	o := New(Seed)
	for o.Evaluations() < Budget-2 {
		x, err := o.Suggest()
		if err != nil {
			t.Fatal(err)
		}
		if n := o.Evaluations(); n > localSize && n > InitialDesign && (regionCentre(o) >= 0 || !hasRegion) {
			u, err := toUnit(x)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := searchBox(o)
			for i := range u {
				if u[i] < lo[i]-1e-12 || u[i] > hi[i]+1e-12 {
					t.Fatalf("evaluation %%d: component %%d at %%v, outside the box [%%v, %%v]", n, i, u[i], lo[i], hi[i])
				}
			}
		}
		if err := observeWavy(o, x); err != nil {
			t.Fatal(err)
		}
		n, m := o.Evaluations(), o.model.Len()
		if m != min(n, localSize) {
			t.Fatalf("after %%d observations the model holds %%d, want %%d", n, m, min(n, localSize))
		}
		if n <= localSize {
			continue
		}
		if !slices.Contains(o.units[:m], o.centre) {
			t.Fatalf("after %%d observations the subset lacks its centre %%v", n, o.centre)
		}
		if c := regionCentre(o); c >= 0 && [Dim]float64(o.observations.Unit(c)) != o.centre {
			t.Fatalf("after %%d observations the subset is centred at %%v, not at the trust region's centre", n, o.centre)
		}
		if c := regionCentre(o); c < 0 && !Replicates && [Dim]float64(o.observations.Unit(o.bestIndex)) != o.centre {
			t.Fatalf("after %%d observations the subset is centred at %%v, not at the best observed point", n, o.centre)
		}
		for k := range m {
			i := slices.Index(o.observed[:n], o.points[k])
			if i < 0 || o.model.Y(k) != o.observations.Y(i) {
				t.Fatalf("model point %%d, %%v, holds %%v, not an observation's value", k, o.points[k], o.model.Y(k))
			}
		}
	}
	if a := testing.AllocsPerRun(1, func() {
		x, err := o.Suggest()
		if err != nil {
			t.Fatal(err)
		}
		if err := observeWavy(o, x); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("a step of the local model allocates %%v times", a)
	}
}
`, libraryPackage(out), observe) + regionCentreDecl(out))
}

// replicatesDecl defines Replicates for localTest: whether the local model
// is centred at the incumbent (under noise) rather than the best observed
// point.
func replicatesDecl(out *Output) string {
	noisy := strings.Contains(string(out.Library[0].Content), "the incumbent (best posterior mean),")
	return fmt.Sprintf("\nconst Replicates = %v\n", noisy)
}

// regionCentreDecl defines hasRegion, regionCentre and searchBox for
// localTest: the trust region's centre, -1 without a trust region, and the
// box the last search was confined to (the trust region's, or the one the
// subset describes in detail).
func regionCentreDecl(out *Output) string {
	if strings.Contains(string(out.Library[0].Content), "search.NewRegions(") {
		return replicatesDecl(out) + `
const hasRegion = true

func regionCentre(o *Optimizer) int { return o.regions.Centre() }

func searchBox(o *Optimizer) (lo, hi []float64) {
	lo, hi, _ = o.regions.Box(0)
	return lo, hi
}
`
	}
	return replicatesDecl(out) + `
const hasRegion = false

func regionCentre(*Optimizer) int { return -1 }

func searchBox(o *Optimizer) (lo, hi []float64) { return o.boxLo[:], o.boxHi[:] }
`
}

// observeDecl defines observe for a case's tests: Observe with the synthetic
// value, every unknown constraint at its limit, a reported sd of 0.01.
func observeDecl(out *Output) string {
	content := string(out.Library[0].Content)
	call := "o.Observe(x, synthetic(x))"
	switch {
	case reportsNoise(out):
		call = "o.ObserveWithSD(x, synthetic(x), 0.01)"
	case strings.Contains(content, "\ntype Constraints "):
		call = "o.Observe(x, synthetic(x), ConstraintLimits)" // every value at its limit
	}
	return fmt.Sprintf("func observe(o *Optimizer, x Point) error { return %s }\n", call)
}

// pendingTest is a test in the case's package of Pending, Release and
// SuggestBatch: a pending point is never suggested while pending and SuggestBatch's points are
// distinct; a pending point is never data (Evaluations and Best ignore it;
// Pending then Observe is Observe, Pending then Release is nothing, bit for
// bit, and for an optimiser with fantasies even with a Suggest in between);
// the calls allocate nothing; and a safe optimiser's certificates and safe
// set do not change with Pending.
func pendingTest(name string, out *Output) []byte {
	content := string(out.Library[0].Content)
	safe := strings.Contains(content, "func (o *Optimizer) Certificate(")
	// skip is whether err is the domain running out of points to suggest.
	skip := "errors.Is(err, ErrExhausted)"
	between := "if _, err := a.Suggest(); err != nil && !(" + skip + ") {\n\t\tt.Fatal(err)\n\t}"
	certificates := ""
	if safe {
		skip = "errors.Is(err, ErrExhausted) || errors.Is(err, safe.ErrNoSafePoint)"
		between = "// a safe Suggest plays the explorer's random first phase: no Suggest here"
		certificates = `

// sameCertificate compares certificates bit for bit (first-phase bounds are NaN).
func sameCertificate(a, b Certificate) bool {
	for k := range a.Bounds {
		if math.Float64bits(a.Bounds[k]) != math.Float64bits(b.Bounds[k]) {
			return false
		}
	}
	a.Bounds, b.Bounds = Constraints{}, Constraints{}
	return a == b
}

// TestPendingKeepsCertificates: a pending point takes no part in the
// constraints' models: the safe set, its size and β stay; a pending point the
// explorer would not choose anyway (not certified safe) changes neither the
// choice nor its certificate; the pending choice is not chosen again.
func TestPendingKeepsCertificates(t *testing.T) {
	a, b, c := warm(t), warm(t), warm(t)
	x, err := a.Suggest()
	if err != nil {
		t.Fatal(err)
	}
	want, safeSet := a.Certificate(), slices.Clone(a.explorer.Safe())
	for i, in := range safeSet {
		if in {
			continue
		}
		if err := b.Pending(b.decisionPoint(i)); err != nil {
			t.Fatal(err)
		}
		got, err := b.Suggest()
		if err != nil || got != x || !sameCertificate(b.Certificate(), want) {
			t.Errorf("%[1]s: with an unsafe point pending Suggest gives %%v (%%v), %%+v; without, %%v, %%+v", got, err, b.Certificate(), x, want)
		}
		break
	}
	if err := c.Pending(x); err != nil {
		t.Fatal(err)
	}
	got, err := c.Suggest()
	if err != nil && !(` + skip + `) {
		t.Fatal(err)
	}
	if err == nil && got == x {
		t.Errorf("%[1]s: Suggest returns the pending %%v", x)
	}
	cert := c.Certificate()
	if !slices.Equal(c.explorer.Safe(), safeSet) || err == nil && (cert.SafeSize != want.SafeSize || cert.Beta != want.Beta || cert.Phase != want.Phase) {
		t.Errorf("%[1]s: Pending changed the safe set: %%+v, was %%+v", cert, want)
	}
}`
	}
	imports := "\t\"errors\"\n\t\"testing\"\n"
	if safe {
		certificates = fmt.Sprintf(certificates, name)
		imports = "\t\"errors\"\n\t\"math\"\n\t\"slices\"\n\t\"testing\"\n\n\t\"github.com/bocdev/boc/runtime/safe\"\n"
	}
	return []byte(fmt.Sprintf(`package %[2]s

import (
%[5]s)

// warm returns an optimiser that observed a few points, keeping room in the
// budget for the pending tests.
func warm(t *testing.T) *Optimizer {
	o := New(Seed)
	for o.Evaluations() < min(InitialDesign+1, Budget-5) {
		x, err := o.Suggest()
		if err != nil {
			t.Fatal(err)
		}
		if err := observe(o, x); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// TestPendingNeverSuggested: Suggest returns none of the pending points,
// SuggestBatch distinct points, and pending points are no observations.
func TestPendingNeverSuggested(t *testing.T) {
	o := warm(t)
	n := o.Evaluations()
	best, mean, _ := o.Best()
	bestObserved, y, _ := o.BestObserved()
	var pending []Point
	for range 3 {
		x, err := o.Suggest()
		if %[3]s {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pending {
			if x == p {
				t.Fatalf("%[1]s: Suggest returns %%v, pending since Suggest returned it before", x)
			}
		}
		if err := o.Pending(x); err != nil {
			t.Fatal(err)
		}
		if o.Pending(x) == nil {
			t.Errorf("%[1]s: %%v was made pending twice", x)
		}
		pending = append(pending, x)
	}
	b, m, _ := o.Best()
	bo, v, _ := o.BestObserved()
	if o.Evaluations() != n || b != best || m != mean || bo != bestObserved || v != y {
		t.Errorf("%[1]s: pending points changed Evaluations, Best or BestObserved")
	}
	for _, p := range pending {
		if !o.Release(p) || o.Release(p) {
			t.Errorf("%[1]s: releasing %%v", p)
		}
	}
	var batch [3]Point
	if err := o.SuggestBatch(batch[:]); %[3]s {
		return
	} else if err != nil {
		t.Fatal(err)
	}
	for i, x := range batch {
		for _, p := range batch[:i] {
			if x == p {
				t.Errorf("%[1]s: SuggestBatch gives %%v twice", x)
			}
		}
		if !o.Release(x) {
			t.Errorf("%[1]s: SuggestBatch's %%v is not pending", x)
		}
	}
}

// TestPendingIsNoData: Pending then Observe is Observe, and Pending then
// Release nothing, bit for bit.
func TestPendingIsNoData(t *testing.T) {
	a, b := warm(t), warm(t)
	x, err := a.Suggest()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Suggest(); err != nil {
		t.Fatal(err)
	}
	if err := a.Pending(x); err != nil {
		t.Fatal(err)
	}
	%[4]s
	if err := observe(a, x); err != nil {
		t.Fatal(err)
	}
	if err := observe(b, x); err != nil {
		t.Fatal(err)
	}
	if a.Release(x) {
		t.Errorf("%[1]s: %%v is pending after its observation", x)
	}
	same := func(when string) {
		xa, ma, _ := a.Best()
		xb, mb, _ := b.Best()
		if xa != xb || ma != mb || a.Evaluations() != b.Evaluations() {
			t.Errorf("%[1]s: %%s: Best is %%v (mean %%v), without pending %%v (mean %%v)", when, xa, ma, xb, mb)
		}
		sa, errA := a.Suggest()
		sb, errB := b.Suggest()
		if sa != sb || (errA == nil) != (errB == nil) {
			t.Errorf("%[1]s: %%s: Suggest gives %%v (%%v), without pending %%v (%%v)", when, sa, errA, sb, errB)
		}
	}
	same("after Pending and Observe")
	p, err := a.Suggest()
	if %[3]s {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Suggest(); err != nil {
		t.Fatal(err)
	}
	if err := a.Pending(p); err != nil {
		t.Fatal(err)
	}
	a.Release(p)
	same("after Pending and Release")
}

// TestPendingAllocationFree: SuggestBatch, Pending, Release and Observe of
// pending points allocate nothing. The round's first Suggest comes before
// the measurements: a safe explorer's first phase may refit then, which
// allocates (runtime/safe).
func TestPendingAllocationFree(t *testing.T) {
	o := warm(t)
	if _, err := o.Suggest(); err != nil && !(%[3]s) {
		t.Fatal(err)
	}
	var batch [2]Point
	// An error, which allocates, ends the test: the domain, or the safe
	// points a first phase plays, may not hold two points more.
	if err := o.SuggestBatch(batch[:]); %[3]s {
		return
	}
	for _, x := range batch {
		o.Release(x)
	}
	if a := testing.AllocsPerRun(2, func() {
		if err := o.SuggestBatch(batch[:]); err != nil {
			t.Fatal(err)
		}
		for _, x := range batch {
			o.Release(x)
			if err := o.Pending(x); err != nil {
				t.Fatal(err)
			}
			o.Release(x)
		}
	}); a != 0 {
		t.Errorf("%[1]s: SuggestBatch, Pending and Release allocate %%v times", a)
	}
	// Observe of a pending point, on up to three batches: AllocsPerRun
	// counts every allocation in the process, and a stray one elsewhere (the
	// runtime's, under load) must not fail the test, while one of Observe's
	// own comes back on every batch.
	allocs := -1.0
	for try := 0; try < 3 && allocs != 0; try++ {
		err := o.SuggestBatch(batch[:])
		if %[3]s {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		allocs = testing.AllocsPerRun(1, func() {
			if err := observe(o, batch[i]); err != nil {
				t.Fatal(err)
			}
			i++
		})
	}
	if allocs != 0 {
		t.Errorf("%[1]s: Observe of a pending point allocates %%v times", allocs)
	}
}%[6]s
`, name, libraryPackage(out), skip, between, imports, certificates))
}

// libraryPackage is the package name of a case's library.
func libraryPackage(out *Output) string {
	content := string(out.Library[0].Content)
	if i := strings.Index(content, "\npackage "); i >= 0 {
		return strings.Fields(content[i+1:])[1]
	}
	return ""
}

// smoothTest is, for an optimiser whose acquisition averages over the input
// noise (a model over input distributions, or uei), a test that the
// acquisition is a smooth function of the candidate, as common random
// numbers make it: along a segment of the first component, its largest
// second difference at step h is at most 0.4 of that at step 2h (a smooth
// function's scale by 1/4). Draws made afresh for every candidate make it
// jagged (AIRBO's Fig. 3): noise has second differences of the same size at
// every step, so for mmd(draws = "fresh") the test asserts the opposite.
func smoothTest(name string, out *Output) []byte {
	check := `if !(step <= 0.4*double+1e-12) {
		t.Errorf("%s: the acquisition's largest second difference is %%v at step h and %%v at step 2h: it is not smooth", step, double)
	}`
	if strings.Contains(string(out.Library[0].Content), "noise.FreshAt(") {
		check = `if step <= 0.4*double {
		t.Errorf("%s: the acquisition's largest second difference is %%v at step h and %%v at step 2h: smooth, though every candidate's draws are fresh", step, double)
	}`
	}
	return []byte(fmt.Sprintf(`package %[1]s

import (
	"errors"
	"math"
	"testing"
)

func TestSmoothAcquisition(t *testing.T) {
	o := New(Seed)
	for o.Evaluations() < min(InitialDesign+2, Budget) {
		x, err := o.Suggest()
		if errors.Is(err, ErrExhausted) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := observe(o, x); err != nil { // alloc_test.go's
			t.Fatal(err)
		}
	}
	if _, err := o.Suggest(); err != nil && !errors.Is(err, ErrExhausted) {
		t.Fatal(err) // sets the acquisition's state for this round
	}
	var u [Dim]float64
	for i := range u {
		u[i] = 0.5
	}
	var scores []float64
	for k := range 401 {
		u[0] = 0.3 + 0.2*float64(k)/400
		scores = append(scores, o.scoreAt(&o.workers[0], u[:]))
	}
	step, double := 0.0, 0.0
	for k := 2; k+2 < len(scores); k++ {
		step = max(step, math.Abs(scores[k+1]-2*scores[k]+scores[k-1]))
		double = max(double, math.Abs(scores[k+2]-2*scores[k]+scores[k-2]))
	}
	%[3]s
}
`, libraryPackage(out), name, fmt.Sprintf(check, name)))
}

// localisedTest is, for a model over input distributions, a test that
// ObserveLocalised allocates nothing, rejects a landing away from x on an
// unperturbed component and an indefinite covariance, and, for a model over
// the noise's moments, that an estimate equal to the input noise's moments
// gives the posterior Observe gives.
func localisedTest(name string, out *Output) []byte {
	moments := strings.Contains(string(out.Library[0].Content), "\nfunc noiseMoments(")
	// With unknown constraints, every value is observed at its limit.
	measured := ""
	if strings.Contains(string(out.Library[0].Content), "\ntype Constraints ") {
		measured = ", ConstraintLimits"
	}
	compare := ""
	if moments {
		compare = fmt.Sprintf(`
	// Told the query landed as the input noise says, the model over the
	// noise's moments holds the same distributions as Observe makes.
	var mean Point
	a, b := New(Seed), New(Seed)
	for a.Evaluations() < min(InitialDesign+2, Budget) {
		x, err := a.Suggest()
		if err != nil {
			t.Fatal(err)
		}
		y := synthetic(x)
		mean, cov = Point{}, [Dim * Dim]float64{}
		noiseMoments(&x, &mean, &cov)
		landed := x
		for i := range landed {
			landed[i] += mean[i]
		}
		if err := a.Observe(x, y%[2]s); err != nil {
			t.Fatal(err)
		}
		if err := b.ObserveLocalised(x, y%[2]s, landed, cov); err != nil {
			t.Fatal(err)
		}
	}
	xa, ma, _ := a.Best()
	xb, mb, _ := b.Best()
	if xa != xb || math.Abs(ma-mb) > 1e-9*(1+math.Abs(ma)) {
		t.Errorf("%[1]s: Observe recommends %%v (mean %%v), ObserveLocalised at the noise's moments %%v (mean %%v)", xa, ma, xb, mb)
	}`, name, measured)
	}
	return []byte(fmt.Sprintf(`package %[1]s

import (
	"math"
	"testing"
)

func TestObserveLocalised(t *testing.T) {
	o := New(Seed)
	var cov [Dim * Dim]float64
	for i := range Dim {
		if perturbed[i] {
			w := Upper[i] - Lower[i]
			cov[i*Dim+i] = 1e-4 * w * w
		}
	}
	localised := func() {
		x, err := o.Suggest()
		if err != nil {
			t.Fatal(err)
		}
		if err := o.ObserveLocalised(x, synthetic(x)%[4]s, x, cov); err != nil {
			t.Fatal(err)
		}
	}
	for o.Evaluations() < min(InitialDesign+2, Budget-3) {
		localised()
	}
	if a := testing.AllocsPerRun(2, localised); a != 0 {
		t.Errorf("%[2]s: Suggest and ObserveLocalised allocate %%v times", a)
	}
	x := Lower
	bad := cov
	bad[0] = -1
	if err := o.ObserveLocalised(x, 1%[4]s, x, bad); err == nil {
		t.Errorf("%[2]s: a negative variance was accepted")
	}
	for i := range Dim {
		if !perturbed[i] {
			landed := x
			landed[i] += 0.25 * (Upper[i] - Lower[i])
			if err := o.ObserveLocalised(x, 1%[4]s, landed, cov); err == nil {
				t.Errorf("%[2]s: a landing away from x on %%s, which no noise moves, was accepted", ComponentNames[i])
			}
		}
	}
	if err := o.ObserveLocalised(x, 1%[4]s, x, [Dim * Dim]float64{math.NaN()}); err == nil {
		t.Errorf("%[2]s: a NaN covariance was accepted")
	}%[3]s
}
`, libraryPackage(out), name, compare, measured))
}

// replayTest is a test in a case's program: a study driven by ask and tell
// through the command line, every command replaying the journal into a
// fresh optimiser, and through serve's API, whose server replays it once,
// asks for exactly the points the library's own loop suggests from the
// same values.
func replayTest(importPath string, out *Output) []byte {
	tell, observe := "", "o.Observe(x, y)"
	values := `, "--value", strconv.FormatFloat(y, 'g', -1, 64)`
	exhausted := "errors.Is(err, lib.ErrExhausted)"
	if several(out) {
		// Objective j is told y + j·x[0], each by name.
		values, exhausted = "", "errors.Is(err, lib.ErrFull)"
		tell = `var v lib.Objectives
		for j, name := range lib.ObjectiveNames {
			v[j] = y + float64(j)*x[0]
			args = append(args, "--value", name+"="+strconv.FormatFloat(v[j], 'g', -1, 64))
		}`
		observe = "o.Observe(x, v)"
	}
	switch {
	case reportsNoise(out):
		tell, observe = `args = append(args, "--sd", "0.01")`, "o.ObserveWithSD(x, y, 0.01)"
	case strings.Contains(string(out.Library[0].Content), "\ntype Constraints "):
		tell += `
		for i, name := range lib.ConstraintNames {
			args = append(args, "--constraint", name+"="+strconv.FormatFloat(lib.ConstraintLimits[i], 'g', -1, 64))
		}`
		observe = strings.Replace(observe, ")", ", lib.ConstraintLimits)", 1) // every value at its limit
	}
	return []byte(fmt.Sprintf(`package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	lib %[1]q
	"github.com/bocdev/boc/runtime/journal"
	"github.com/bocdev/boc/runtime/program"
)

func TestAskTellReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "study.journal")
	command := func(args ...string) int {
		var out, errs bytes.Buffer
		code := program.Run(context.Background(), problem, append(args, "--journal", path), &out, &errs)
		if code != 0 && args[0] != "ask" {
			t.Fatalf("%%v: exit %%d: %%s", args, code, errs.String())
		}
		return code
	}
	replayRounds(t, path, func() bool { return command("ask") == 0 }, func(args []string) { command(args...) })
}

// TestServedAskTell: the same study driven through serve's API, whose
// server goes on from request to request with the study it replayed once.
func TestServedAskTell(t *testing.T) {
	path := filepath.Join(t.TempDir(), "study.journal")
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	var errs bytes.Buffer
	done := make(chan int)
	go func() {
		code := program.Run(ctx, problem, []string{"serve", "--listen", "127.0.0.1:0", "--journal", path}, w, &errs)
		w.Close()
		done <- code
	}()
	defer func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("serve exited %%d: %%s", code, errs.String())
		}
	}()
	lines := bufio.NewScanner(out)
	address := ""
	for address == "" && lines.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(lines.Text()), "http://"); ok {
			address = rest
		}
	}
	if address == "" {
		t.Fatal("serve printed no address")
	}
	go io.Copy(io.Discard, out)
	base, token, _ := strings.Cut(address, "/?token=")
	post := func(endpoint string, body any) int {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", "http://"+base+endpoint, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK && endpoint != "/api/ask" {
			t.Fatalf("%%s %%s: %%d %%s", endpoint, b, resp.StatusCode, answer)
		}
		return resp.StatusCode
	}
	replayRounds(t, path, func() bool { return post("/api/ask", nil) == http.StatusOK }, func(args []string) {
		// tell ID --value V|NAME=V [--sd S] [--constraint NAME=V]... as JSON.
		body := map[string]any{"id": args[1]}
		objectives, constraints := map[string]string{}, map[string]string{}
		for i := 2; i+1 < len(args); i += 2 {
			name, v, named := strings.Cut(args[i+1], "=")
			switch {
			case args[i] == "--value" && named:
				objectives[name], body["value"] = v, objectives
			case args[i] == "--value":
				body["value"] = args[i+1]
			case args[i] == "--sd":
				body["sd"] = args[i+1]
			case args[i] == "--constraint":
				constraints[name], body["constraints"] = v, constraints
			}
		}
		post("/api/tell", body)
	})
}

// replayRounds asks (ask reports whether a trial was asked) and tells
// (tell takes the arguments of the command tell) a study recorded in the
// journal at path, and checks that each ask asks for the point the
// library's own loop suggests from the same values.
func replayRounds(t *testing.T, path string, ask func() bool, tell func(args []string)) {
	o := lib.New(lib.Seed)
	for round := 1; round <= min(lib.Budget, lib.InitialDesign+3); round++ {
		asked := ask()
		x, err := o.Suggest()
		if !asked || err != nil {
			if asked || !%[4]s {
				t.Fatalf("round %%d: asked %%v, the library's Suggest says %%v", round, asked, err)
			}
			return
		}
		j, err := journal.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		last := j.Events()[len(j.Events())-1]
		j.Close()
		if !slices.Equal(last.X, x[:]) {
			t.Fatalf("round %%d: ask gave %%v, the library's loop %%v", round, last.X, x)
		}
		y := 0.0
		for i, v := range x {
			y += float64(i+1) * v * v
		}
		args := []string{"tell", last.Trial%[5]s}
		%[2]s
		tell(args)
		if err := %[3]s; err != nil {
			t.Fatal(err)
		}
	}
}

// TestAskBatch: ask -n 3 asks for three distinct points, and a further ask
// for none of them while they are pending (a safe optimiser or a small
// decision set may run out of points it can play: asks then go one at a
// time until one is refused).
func TestAskBatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "study.journal")
	ask := func(n int) int {
		var out, errs bytes.Buffer
		return program.Run(context.Background(), problem, []string{"ask", "-n", strconv.Itoa(n), "--journal", path}, &out, &errs)
	}
	if lib.Budget < 4 {
		return
	}
	want := 0
	if ask(3) == 0 {
		want = 3
	}
	for want < 4 && ask(1) == 0 {
		want++
	}
	if want == 0 {
		t.Fatal("no trial asked")
	}
	j, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var asked [][]float64
	for _, e := range j.Events() {
		if e.Kind != journal.KindAsk {
			continue
		}
		for _, x := range asked {
			if slices.Equal(x, e.X) {
				t.Fatalf("trial %%s asks for %%v again", e.Trial, e.X)
			}
		}
		asked = append(asked, e.X)
	}
	if len(asked) != want {
		t.Fatalf("%%d trials asked, want %%d", len(asked), want)
	}
}
`, importPath, tell, observe, exhausted, values))
}

// simulates reports whether a case's library simulates its problem
// (Simulate), so that its journalled runs can be made in the test.
func simulates(out *Output) bool {
	return slices.ContainsFunc(out.Library, func(f File) bool { return bytes.Contains(f.Content, []byte("\nfunc Simulate(")) })
}

// journalRunTest is, for a case whose problem is simulated, a test of its
// journalled runs: a run stopped by its budget and continued, and a run
// killed (its pending trial evaluated again) end as an uninterrupted run
// does, trial for trial, since Simulate draws each trial's noise from
// streams of its own; two workers tell as many trials.
var journalRunTest = []byte(`package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/bocdev/boc/runtime/program"
)

func TestJournalledRun(t *testing.T) {
	dir := t.TempDir()
	budget := strconv.Itoa(min(problem.Budget, 16))
	run := func(name string, args ...string) string {
		path := filepath.Join(dir, name)
		var out, errs bytes.Buffer
		if code := program.Run(context.Background(), problem, append([]string{"run", "--journal", path}, args...), &out, &errs); code != 0 {
			t.Fatalf("run %v: exit %d: %s", args, code, errs.String())
		}
		out.Reset()
		if code := program.Run(context.Background(), problem, []string{"status", "--json", "--journal", path}, &out, &errs); code != 0 {
			t.Fatalf("status: exit %d: %s", code, errs.String())
		}
		return out.String()
	}
	whole := run("whole", "--budget", budget)
	run("parts", "--budget", "3")
	if parts := run("parts", "--budget", budget); parts != whole {
		t.Errorf("continued after 3 trials:\n%s\nuninterrupted:\n%s", parts, whole)
	}
	// A run killed while it evaluated its kth trial: the journal up to that
	// trial's ask, whose lease has expired. Resumed, it asks what the
	// uninterrupted run asked. The first, a middle and the last trial stand
	// for every instant: each resumed run repeats the whole run, so every
	// instant would make the test quadratic in the budget.
	journal, err := os.ReadFile(filepath.Join(dir, "whole"))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(budget)
	for _, k := range slices.Compact([]int{1, (n + 1) / 2, n}) {
		var killed []byte
		asks := 0
		for _, line := range bytes.SplitAfter(journal, []byte("\n")) {
			if bytes.Contains(line, []byte(` + "`" + `"event":"ask"` + "`" + `)) {
				if asks++; asks == k {
					killed = append(killed, regexp.MustCompile(` + "`" + `"until":"[^"]*"` + "`" + `).ReplaceAll(line, []byte(` + "`" + `"until":"2000-01-01T00:00:00Z"` + "`" + `))...)
					break
				}
			}
			killed = append(killed, line...)
		}
		name := "killed" + strconv.Itoa(k)
		if err := os.WriteFile(filepath.Join(dir, name), killed, 0o644); err != nil {
			t.Fatal(err)
		}
		if resumed := run(name, "--budget", budget); resumed != whole {
			t.Errorf("continued after a kill at trial %d:\n%s\nuninterrupted:\n%s", k, resumed, whole)
		}
	}
	if two := run("two", "--budget", budget, "--workers", "2"); !bytes.Contains([]byte(two), []byte(` + "`" + `"evaluations":` + "`" + `)) {
		t.Errorf("two workers: %s", two)
	}
}
`)

// reportsNoise reports whether a case's optimiser observes values with their
// reported noise sd.
func reportsNoise(out *Output) bool {
	return strings.Contains(string(out.Library[0].Content), "func (o *Optimizer) ObserveWithSD(")
}

// reportedNoiseTest is, for a case whose observation noise is reported, a
// test that ObserveWithSD rejects sds that are negative or not finite and
// that after observations with different sds, and the refits among them, the
// model holds each observation's own noise variance sd² (plus the
// nugget, at most 1e-8 of the values' variance) and its posterior is the
// dense GP posterior with those variances (in the objective's units, with the
// model's standardisation).
func reportedNoiseTest(name string, out *Output) []byte {
	return []byte(fmt.Sprintf(`package %s

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestReportedNoiseMatchesDenseReference(t *testing.T) {
	const n = InitialDesign + 4
	o := New(Seed)
	var sds [n]float64
	for i := range n {
		x, err := o.Suggest()
		if err != nil {
			t.Fatal(err)
		}
		sds[i] = 0.05 + 0.1*float64(i%%4)
		if err := o.ObserveWithSD(x, synthetic(x), sds[i]); err != nil {
			t.Fatal(err)
		}
	}
	shift, scale := o.model.Shift(), o.model.Scale()
	for i, sd := range sds {
		if got := o.model.Noise(i); math.Abs(got-sd*sd) > 1e-6*scale*scale {
			t.Errorf("%s: observation %%d has noise variance %%v, want %%v (sd %%v)", i, got, sd*sd, sd)
		}
	}
	a := mat.NewSymDense(n, nil)
	r := mat.NewVecDense(n, nil)
	for i := range n {
		for j := range i + 1 {
			a.SetSym(i, j, scale*scale*kernel(&o.hyper, &o.units[i], &o.units[j]))
		}
		a.SetSym(i, i, a.At(i, i)+o.model.Noise(i))
		r.SetVec(i, o.model.Y(i)-shift)
	}
	var chol mat.Cholesky
	if !chol.Factorize(a) {
		t.Fatal("the reference matrix is not positive definite")
	}
	if err := o.ObserveWithSD(o.points[0], 1, -0.1); err == nil {
		t.Errorf("%s: a negative sd was accepted")
	}
	if err := o.ObserveWithSD(o.points[0], 1, math.NaN()); err == nil {
		t.Errorf("%s: a NaN sd was accepted")
	}
	if err := o.ObserveWithSD(o.points[0], 1, math.Inf(1)); err == nil || o.Evaluations() != n {
		t.Errorf("%s: an infinite sd was accepted, or a rejected observation was counted")
	}
	var alpha, w mat.VecDense
	if err := chol.SolveVecTo(&alpha, r); err != nil {
		t.Fatal(err)
	}
	for p := range 3 {
		var u [Dim]float64
		for j := range u {
			u[j] = math.Mod(0.3*float64(p+1)+0.17*float64(j), 1)
		}
		kvec := make([]float64, n)
		for i := range kvec {
			kvec[i] = kernel(&o.hyper, &u, &o.units[i])
		}
		k := mat.NewVecDense(n, append([]float64(nil), kvec...))
		k.ScaleVec(scale*scale, k)
		if err := chol.SolveVecTo(&w, k); err != nil {
			t.Fatal(err)
		}
		wantMean := shift + mat.Dot(k, &alpha)
		wantVar := scale*scale*kernel(&o.hyper, &u, &u) - mat.Dot(k, &w)
		mean, variance := o.model.Predict(kvec, kernel(&o.hyper, &u, &u))
		if math.Abs(mean-wantMean) > 1e-9*(1+math.Abs(wantMean)) || math.Abs(variance-wantVar) > 1e-9*(1+wantVar) {
			t.Errorf("%s at %%v: posterior (%%v, %%v), want (%%v, %%v) with noise sds %%v", u, mean, variance, wantMean, wantVar, sds)
		}
	}
}
`, libraryPackage(out), name, name, name, name, name))
}

// theoryBetaTest is, for testdata/golden/ugp_igp.bo, a test that the weight
// uGP-UCB gives the posterior sd is Oliveira et al.'s Eq. 20, computed here
// from the paper's formulas: the integral kernel of Eq. 80 between the
// Gaussian input distributions, the noise σ_ν² = σ_ζ² + σ_E² with σ_E² from
// Prop. 3, and the information gain ½ log det(I + σ_ν⁻²K̂).
func theoryBetaTest(out *Output) []byte {
	return []byte(fmt.Sprintf(`package %s

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestUGPUCBWeightIsEq20(t *testing.T) {
	// ugp_igp.bo: se(lengthscale = 0.1), input noise N(0, 0.05²), observation
	// noise sd 0.1, b = 2 (in the inflation and the schedule), δ = 0.4.
	const lengthscale, inputSD, noiseSD, b, delta = 0.1, 0.05, 0.1, 2.0, 0.4
	o := New(Seed)
	for o.Evaluations() < Budget {
		x, err := o.Suggest()
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Observe(x, synthetic(x)); err != nil {
			t.Fatal(err)
		}
		n, scale, variance := o.Evaluations(), o.model.Scale(), o.hyper[0]
		// Eq. 80 for N(x_i, σ²) and N(x_j, σ²) in 1-D, and Prop. 3's
		// σ_E² = b²·(s²/ℓ²)·σ², both on the model's standardised scale.
		width := lengthscale*lengthscale + 2*inputSD*inputSD
		sigmaE2 := b * b * variance / (lengthscale * lengthscale) * inputSD * inputSD
		nu2 := noiseSD*noiseSD/(scale*scale) + sigmaE2
		a := mat.NewSymDense(n, nil)
		for i := range n {
			for j := range i + 1 {
				d := o.units[i][0] - o.units[j][0]
				a.SetSym(i, j, variance*math.Exp(-0.5*d*d/width)/math.Sqrt(width/(lengthscale*lengthscale))/nu2)
			}
			a.SetSym(i, i, a.At(i, i)+1)
		}
		var chol mat.Cholesky
		if !chol.Factorize(a) {
			t.Fatalf("n = %%d: I + K/σ_ν² is not positive definite", n)
		}
		gain := 0.5 * chol.LogDet()
		want := b + math.Sqrt(nu2)*math.Sqrt(2*(gain+1+math.Log(1/delta)))
		if got := o.acquisitionSetting(); math.Abs(got-want) > 1e-6*want {
			t.Errorf("n = %%d: the weight of the sd is %%.12g, Eq. 20 gives %%.12g (information gain %%.6g, σ_ν %%.6g)", n, got, want, gain, math.Sqrt(nu2))
		}
	}
}
`, libraryPackage(out)))
}

// refitAllocTest is, for a case that learns hyperparameters, a test that the
// steps up to and including a refit (an Observe that refits) allocate
// nothing, after a warm-up through the first refit and one search.
func refitAllocTest(name string, out *Output) string {
	if !strings.Contains(string(out.Library[0].Content), "func (o *Optimizer) refitIfDue() error") {
		return ""
	}
	return fmt.Sprintf(`
func TestRefitAllocationFree(t *testing.T) {
	o := New(Seed)
	for o.fitted == 0 && o.Evaluations() < Budget {
		step(t, o)
	}
	step(t, o) // the first search
	fitted := o.fitted
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for o.fitted == fitted && o.Evaluations() < Budget {
		step(t, o)
	}
	runtime.ReadMemStats(&after)
	if fitted == 0 || o.fitted == fitted {
		t.Fatalf("%s: refits after %%d and %%d observations; want two within the budget", fitted, o.fitted)
	}
	if n := after.Mallocs - before.Mallocs; n != 0 {
		t.Errorf("%s: the steps up to the refit after %%d observations allocate %%d times", o.fitted, n)
	}
}
`, name, name)
}

// execObjective is the command of testdata/golden/exec.bo and
// exec_reported.bo: it reads {"x": {"x": a, "v": [b, c]}} and answers
// {"y": Σ (value + shift)²}, with "sd" added when --sd is given.
const execObjective = `package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	shift := flag.Float64("shift", 0, "added to every component")
	sd := flag.Float64("sd", -1, "the noise sd to report, if >= 0")
	report := flag.String("report", "", "a constraint to report as well: the sum of the components")
	objectives := flag.String("objectives", "", "names of objectives to answer instead of y: the sphere, less the index times the first component")
	flag.Parse()
	var in struct {
		X struct {
			X        float64
			V        []float64
			Catalyst *string // a categorical dimension's level, by name
		}
	}
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil || len(in.X.V) != 2 {
		fmt.Fprintln(os.Stderr, "bad input:", err)
		os.Exit(1)
	}
	y := 0.0
	for _, v := range append([]float64{in.X.X}, in.X.V...) {
		y += (v + *shift) * (v + *shift)
	}
	if in.X.Catalyst != nil {
		cost, ok := map[string]float64{"Pd": 0.5, "Ni": 0, "Cu": 1}[*in.X.Catalyst]
		if !ok {
			fmt.Fprintf(os.Stderr, "bad input: catalyst %q\n", *in.X.Catalyst)
			os.Exit(1)
		}
		y += cost
	}
	if *objectives != "" {
		answer := map[string]float64{}
		for i, name := range strings.Split(*objectives, ",") {
			answer[name] = y - float64(i)*in.X.X
		}
		if *report != "" {
			answer[*report] = in.X.X + in.X.V[0] + in.X.V[1]
		}
		out, _ := json.Marshal(answer)
		fmt.Println(string(out))
		return
	}
	if *report != "" {
		fmt.Printf("{\"y\": %v, %q: %v}\n", y, *report, in.X.X+in.X.V[0]+in.X.V[1])
		return
	}
	if *sd < 0 {
		fmt.Printf("{\"y\": %v}\n", y)
		return
	}
	fmt.Printf("{\"y\": %v, \"sd\": %v}\n", y, *sd)
}
`

// runResult is the --json output of a program.
type runResult struct {
	Problem            string                     `json:"problem"`
	Seed               uint64                     `json:"seed"`
	Evaluations        int                        `json:"evaluations"`
	Recommendation     map[string]json.RawMessage `json:"recommendation"`
	RecommendationMean *float64                   `json:"recommendation_mean"`
	BestObserved       *struct {
		X map[string]json.RawMessage `json:"x"`
		Y float64                    `json:"y"`
	} `json:"best_observed"`
	Stopped string `json:"stopped"`
	// Feasible, with requirements, says whether an evaluated point meets
	// them: without one there is no recommendation.
	Feasible *bool `json:"feasible"`
}

// runProgram runs a built program in the bin directory (where exec.bo's
// command lives) and returns its stdout, stderr and exit code.
func (b *goldenBuild) runProgram(t *testing.T, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := filepath.Join(b.bin, name)
	if slices.Contains(b.cases, name) {
		path += ".test"
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir, cmd.Env = b.bin, append(os.Environ(), programEnv+"=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("running %s: %v", name, err)
	}
	return out.String(), errOut.String(), code
}

// TestGoldenPrograms runs every golden program for a few evaluations past
// its initial design and checks its JSON output against the problem.
func TestGoldenPrograms(t *testing.T) {
	b := builtModule(t)
	for _, name := range b.cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := checkFile(t, filepath.Join(goldenDir, name+".bo"))
			budget := min(p.Budget, p.Init.Size()+3)
			stdout, stderr, code := b.runProgram(t, name, "run", "--json", "--budget", fmt.Sprint(budget), "--seed", "17")
			if p.Objective.Binding.Kind == ir.ExternalBinding { // the program cannot evaluate it
				if code != 2 || !strings.Contains(stderr, "the objective is external") {
					t.Fatalf("external objective: exit %d, stderr %q", code, stderr)
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
			}
			if p.Objective.Outputs != nil {
				if r := checkPareto(t, p, stdout); r.Evaluations != budget || len(r.Pareto) == 0 {
					t.Errorf("%d evaluations, a front of %d points; want %d and some", r.Evaluations, len(r.Pareto), budget)
				}
				return
			}
			var r runResult
			if err := json.Unmarshal([]byte(stdout), &r); err != nil {
				t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
			}
			if r.Problem != p.Name || r.Seed != 17 {
				t.Errorf("problem %q seed %d, want %q 17", r.Problem, r.Seed, p.Name)
			}
			switch r.Stopped {
			case "budget":
				if r.Evaluations != budget {
					t.Errorf("stopped for the budget after %d evaluations, want %d", r.Evaluations, budget)
				}
			case "stop when":
				if r.Evaluations > budget || r.Evaluations < p.Init.Size() {
					t.Errorf("stopped by the condition after %d evaluations, outside %d..%d", r.Evaluations, p.Init.Size(), budget)
				}
			default:
				t.Errorf("stopped %q", r.Stopped)
			}
			infeasible := r.Feasible != nil && !*r.Feasible
			if r.BestObserved == nil || (r.RecommendationMean == nil) != infeasible || (r.Recommendation == nil) != infeasible {
				t.Fatalf("a recommendation (or none) that disagrees with the feasibility: %s", stdout)
			}
			checkPoint(t, p.Dims, r.BestObserved.X)
			if !infeasible {
				checkPoint(t, p.Dims, r.Recommendation)
			}
		})
	}
}

// TestProgramOutput checks the human-readable output: one progress line per
// evaluation on stderr and the summary on stdout.
func TestProgramOutput(t *testing.T) {
	b := builtModule(t)
	stdout, stderr, code := b.runProgram(t, "mixed", "run", "--budget", "8")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 8 || !strings.HasPrefix(lines[0], "[1/8] lr=") || !strings.Contains(lines[7], "layers=") {
		t.Errorf("progress lines:\n%s", stderr)
	}
	// Every point, of the design and of the search, satisfies the known
	// constraint capacity: layers * (1 - dropout) >= 2.
	for _, line := range lines {
		var n int
		var lr, layers, dropout, y, best float64
		if _, err := fmt.Sscanf(line, "[%d/8] lr=%g layers=%g dropout=%g  y=%g  best=%g", &n, &lr, &layers, &dropout, &y, &best); err != nil {
			t.Fatalf("progress line %q: %v", line, err)
		}
		if layers*(1-dropout) < 2-1e-5 {
			t.Errorf("%q violates the constraint capacity", line)
		}
	}
	if !strings.HasPrefix(stdout, "problem training (minimise): 8 evaluations, stopped: budget\nrecommendation: lr=") {
		t.Errorf("summary:\n%s", stdout)
	}
	if _, stderr, code := b.runProgram(t, "quickstart", "run", "--budget", "31"); code != 2 || !strings.Contains(stderr, "outside 1..30") {
		t.Errorf("budget beyond the compiled one: exit %d, %q", code, stderr)
	}
}

// TestProgramDeterministic runs a program twice with the same seed.
func TestProgramDeterministic(t *testing.T) {
	b := builtModule(t)
	for _, name := range []string{"mixed", "benchmarks", "mmd_embedding", "ugp_samples"} {
		args := []string{"run", "--json", "--budget", "10", "--seed", "5"}
		first, _, _ := b.runProgram(t, name, args...)
		second, _, _ := b.runProgram(t, name, args...)
		if first != second || first == "" {
			t.Errorf("%s: two runs with seed 5 differ:\n%s\n%s", name, first, second)
		}
		// The search's workers split the restarts between goroutines; the
		// result must not depend on how many run at once.
		t.Setenv("GOMAXPROCS", "1")
		single, _, _ := b.runProgram(t, name, args...)
		if single != first {
			t.Errorf("%s: GOMAXPROCS=1 changes the run:\n%s\n%s", name, first, single)
		}
		t.Setenv("GOMAXPROCS", "")
	}
	// Seed 0 is the problem's seed, as RunOptions{} is.
	var runs [2]struct {
		Recommendation json.RawMessage `json:"recommendation"`
		BestObserved   json.RawMessage `json:"best_observed"`
	}
	for i, args := range [][]string{{"run", "--json", "--budget", "10"}, {"run", "--json", "--budget", "10", "--seed", "0"}} {
		out, _, _ := b.runProgram(t, "benchmarks", args...)
		if err := json.Unmarshal([]byte(out), &runs[i]); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	if !bytes.Equal(runs[0].Recommendation, runs[1].Recommendation) || !bytes.Equal(runs[0].BestObserved, runs[1].BestObserved) {
		t.Errorf("seed 0 differs from the problem's seed: %+v", runs)
	}
}

// TestQuickstartQuality is the README's promise: 30 evaluations with seed 1
// get within 0.05 of Branin's minimum 0.397887.
func TestQuickstartQuality(t *testing.T) {
	b := builtModule(t)
	stdout, stderr, code := b.runProgram(t, "quickstart", "run", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r runResult
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	const braninMin = 0.397887
	if r.Evaluations != 30 || r.BestObserved == nil || r.BestObserved.Y-braninMin > 0.05 {
		t.Errorf("quickstart: best observed %+v after %d evaluations, want within 0.05 of %v\n%s", r.BestObserved, r.Evaluations, braninMin, stdout)
	}
}

// checkPoint checks a JSON point against the domain: every dimension, in
// bounds, vectors as arrays of their size, integers whole.
func checkPoint(t *testing.T, dims []*ir.Dim, point map[string]json.RawMessage) {
	t.Helper()
	always := 0
	for _, d := range dims {
		if d.When == nil {
			always++
		}
	}
	if len(point) < always || len(point) > len(dims) {
		t.Errorf("point %v has %d dimensions, want %d to %d", point, len(point), always, len(dims))
	}
	for _, d := range dims {
		raw, ok := point[d.Name]
		if !ok {
			if d.When == nil { // a conditional dimension is left out where it does not exist
				t.Errorf("point lacks %s", d.Name)
			}
			continue
		}
		var values []float64
		if d.Categorical() {
			var level string
			if err := json.Unmarshal(raw, &level); err != nil || !slices.Contains(d.Levels, level) {
				t.Errorf("%s = %s, want one of %q", d.Name, raw, d.Levels)
			}
			continue
		}
		if d.Vector {
			if err := json.Unmarshal(raw, &values); err != nil || len(values) != d.Size {
				t.Errorf("%s = %s, want %d numbers", d.Name, raw, d.Size)
			}
		} else {
			var v float64
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Errorf("%s = %s: %v", d.Name, raw, err)
			}
			values = []float64{v}
		}
		for _, v := range values {
			if v < d.Lo || v > d.Hi || (d.Integer && v != float64(int(v))) {
				t.Errorf("%s = %v is outside the domain", d.Name, v)
			}
		}
	}
}

// TestExhausted: on a finite domain smaller than the budget, the run stops
// once every point was evaluated, each exactly once.
func TestExhausted(t *testing.T) {
	b := builtModule(t)
	stdout, stderr, code := b.runProgram(t, "integers", "run", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r runResult
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.Stopped != "exhausted" || r.Evaluations != 6 || r.BestObserved == nil || r.BestObserved.Y != 0 {
		t.Errorf("got %s, want stopped exhausted after 6 evaluations with best 0", stdout)
	}
	_, stderr, _ = b.runProgram(t, "integers", "run")
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		fields := strings.Fields(line)
		point := fields[1] + " " + fields[2]
		if seen[point] {
			t.Errorf("%s evaluated twice:\n%s", point, stderr)
		}
		seen[point] = true
	}
	if len(seen) != 6 {
		t.Errorf("%d distinct points evaluated, want 6:\n%s", len(seen), stderr)
	}
}
