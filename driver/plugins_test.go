package driver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bocdev/boc/driver"
	"github.com/bocdev/boc/stdlib/registry"
)

// everyHead is the problem the plugins are tried in; objective stands for
// the objective.
const everyHead = "problem every\ndomain {\n    x in [0, 1]\n    p[4] in [0, 1]\n    q[6] in [0, 1]\n}\n" +
	"objective minimize OBJECTIVE\nbudget 8\ninit sobol(3)\n"

// safeProblem is the problem safe acquisitions are tried in: one unknown
// constraint with a seed on the candidates.
const safeProblem = "problem every\ndomain {\n    x in [0, 1]\n}\nobjective minimize (x - 0.3)^2\nbudget 8\n" +
	"candidates grid(n = 11)\nconstraint heat: simulated x <= 0.8 { seed [[0.5]] }\n"

// defaultObjective is the objective of problems that try other kinds of plugin.
const defaultObjective = "(x - 0.3)^2 + sum(p) + sum(q)"

// argumentShapes are the arguments a function or benchmark is tried with.
var argumentShapes = []string{"x", "x, x", "p", "q", "p, p", "x, x, x", "2", "x, 2", "p, 2", "p, 0.5, 2"}

// usages are the problems that use p as the kind of plugin it is, one of
// which must compile: a distribution of unknown dimension is tried on 1 to 4
// components, a function or benchmark with arguments of several shapes.
func usages(p *registry.Plugin) []string {
	head := strings.Replace(everyHead, "OBJECTIVE", defaultObjective, 1)
	noise := "input noise x ~ normal(0, 0.05)\n"
	call := registry.Default.ExampleCall(p)
	switch p.Kind {
	case registry.Model:
		return []string{head + noise + "model " + call + "\n"}
	case registry.Kernel:
		return []string{head + "model gp(kernel = " + call + ")\n"}
	case registry.Acquisition:
		if p.Safe {
			return []string{safeProblem + "acquisition " + call + "\n"}
		}
		if p.Pareto {
			return []string{strings.Replace(head, "objective minimize "+defaultObjective,
				"objective {\n    minimize f1 = "+defaultObjective+"\n    maximize f2 = x * sum(p)\n}", 1) + "acquisition " + call + "\n"}
		}
		return []string{head + noise + "acquisition " + call + "\n"}
	case registry.Search:
		return []string{head + "search " + call + "\n"}
	case registry.Init:
		return []string{strings.Replace(head, "init sobol(3)", "init "+call, 1)}
	case registry.Distribution:
		var out []string
		for n := 1; n <= 4; n++ {
			out = append(out, head+fmt.Sprintf("input noise p[0:%d] ~ %s\n", n, call))
		}
		return out
	case registry.Candidates:
		return []string{head + "candidates " + call + "\n"}
	case registry.Function, registry.Benchmark:
		var out []string
		for _, args := range argumentShapes {
			c := p.Name + "(" + args + ")"
			for _, objective := range []string{c, "sum(" + c + ")", c + "[0][0]"} {
				out = append(out, strings.Replace(everyHead, "OBJECTIVE", objective+" + x", 1))
			}
		}
		return out
	}
	return nil
}

// TestEveryPlugin compiles and generates a problem that uses each built
// plugin of the registry with its example call, so that a plugin is tested
// end to end the day it is registered, with no list to update.
func TestEveryPlugin(t *testing.T) {
	tested := 0
	for _, p := range registry.All() {
		if !p.Built() || strings.HasPrefix(p.Name, "test_") {
			continue
		}
		files := usages(p)
		if len(files) == 0 {
			continue
		}
		t.Run(p.ID(), func(t *testing.T) {
			var failures []string
			for _, file := range files {
				u := driver.Compile("every.bo", []byte(file), driver.Options{})
				if out, _ := u.Generate(driver.ProgramOptions); out != nil {
					return
				}
				failures = append(failures, fmt.Sprintf("%s\n%v", file, u.Diagnostics))
			}
			t.Errorf("no problem using %s compiles:\n%s", p.Name, strings.Join(failures, "\n"))
		})
		tested++
	}
	if tested < 50 {
		t.Errorf("only %d plugins tested", tested)
	}
}
