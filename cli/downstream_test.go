package cli

import (
	"github.com/bocdev/boc/driver"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// downstreamModule is a user's module: a Go objective, a problem bound to it,
// a //go:generate line running boc, and a test that drives the generated
// optimiser. {{ROOT}} is replaced by this repository's root.
var downstreamModule = map[string]string{
	"go.mod": `module example.com/down

go 1.26

require github.com/bocdev/boc v0.0.0

replace github.com/bocdev/boc => {{ROOT}}
`,
	"field/field.go": `// Package field is the measured quantity: a bowl with its minimum at (0.3, -0.2).
package field

func Cost(x [2]float64) float64 {
	dx, dy := x[0]-0.3, x[1]+0.2
	return dx*dx + dy*dy
}
`,
	"problem.bo": `problem field_search

domain {
    x in [-1, 1]
    y in [-1, 1]
}

objective minimize go "example.com/down/field".Cost

model gp(kernel = matern52(lengthscale = 0.3))
acquisition ei
budget 12
init sobol(4)
seed 2
`,
	"gen.go": `// Package down tunes field.Cost with an optimiser boc generates.
package down

//go:generate boc gen problem.bo -o ./opt --package opt
`,
	"down_test.go": `package down

import (
	"testing"

	"example.com/down/field"
	"example.com/down/opt"
)

func TestOptimiser(t *testing.T) {
	o := opt.New(1)
	var seen []opt.Point
	for i := 0; i < 8; i++ {
		x, err := o.Suggest()
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Observe(x, field.Cost([2]float64(x))); err != nil {
			t.Fatal(err)
		}
		seen = append(seen, x)
	}
	best, _, ok := o.Best()
	if !ok {
		t.Fatal("no recommendation after 8 observations")
	}
	for _, x := range seen {
		if x == best {
			return
		}
	}
	t.Errorf("recommendation %v is not one of the evaluated points %v", best, seen)
}
`,
}

// TestDownstream plays a user of boc: it builds the boc binary, puts it on
// PATH, and runs go generate, go vet and go test in a module whose problem is
// bound to its own Go function.
func TestDownstream(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the downstream test (builds boc and a user module) in -short mode")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	goCmd(t, root, nil, "build", "-o", filepath.Join(bin, "boc"+driver.ExeSuffix()), "./cmd/boc")

	mod := filepath.Join(t.TempDir(), "down")
	for name, content := range downstreamModule {
		writeTestFile(t, filepath.Join(mod, filepath.FromSlash(name)), strings.ReplaceAll(content, "{{ROOT}}", root))
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(mod, "go.sum"), string(sum))

	env := append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOTOOLCHAIN=local", "GOWORK=off")
	goCmd(t, mod, env, "generate", "./...")
	generated, err := filepath.Glob(filepath.Join(mod, "opt", "*.go"))
	if err != nil || len(generated) == 0 {
		t.Fatalf("go generate wrote no Go files into opt/ (%v)", err)
	}
	for _, name := range generated {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if from, ok := generatedFrom(data); !ok || from != "problem.bo" {
			t.Errorf("%s lacks the header %q", name, header("problem.bo"))
		}
	}
	goCmd(t, mod, env, "vet", "./...")
	goCmd(t, mod, env, "test", "./...")
}

// goCmd runs the go command in dir and fails the test with its output if it
// fails. A nil env means the test's environment.
func goCmd(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
}
