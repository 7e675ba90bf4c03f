// Command pool reads the output of boc study --json on many realisations
// of one experiment (bench/studies/sgp_ucb/realisations.sh) and pools each
// method's runs over all of them: per budget, the median and quartiles of
// the average regret of the evaluated points (the SGP-UCB paper's
// measure), of the recommendation's regret and of the truly unsafe
// evaluations, in methods' first-seen order.
//
//	boc study DIR/*.bo --acquisition ... --json | go run ./bench/studies/sgp_ucb/pool
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// study is what pool reads of boc study --json.
type study struct {
	Budgets []int `json:"budgets"`
	Results []struct {
		Method  string `json:"method"`
		Skipped string `json:"skipped"`
		Runs    []struct {
			Regret            []float64 `json:"regret"`
			AverageRegret     []float64 `json:"average_regret"`
			UnsafeEvaluations []float64 `json:"unsafe_evaluations"`
		} `json:"runs"`
	} `json:"results"`
}

// pooled holds a method's values per measure and budget.
type pooled struct {
	runs     int
	measures [3][][]float64
}

var measureNames = [3]string{"average regret of the evaluated points", "regret of the recommendation", "truly unsafe evaluations"}

func main() {
	var s study
	if err := json.NewDecoder(os.Stdin).Decode(&s); err != nil {
		fmt.Fprintln(os.Stderr, "pool: reading boc study --json:", err)
		os.Exit(1)
	}
	var order []string
	methods := map[string]*pooled{}
	for _, r := range s.Results {
		if r.Skipped != "" {
			fmt.Fprintf(os.Stderr, "pool: %s skipped: %s\n", r.Method, r.Skipped)
			continue
		}
		m := methods[r.Method]
		if m == nil {
			m = &pooled{}
			for i := range m.measures {
				m.measures[i] = make([][]float64, len(s.Budgets))
			}
			methods[r.Method] = m
			order = append(order, r.Method)
		}
		for _, run := range r.Runs {
			m.runs++
			for i, values := range [3][]float64{run.AverageRegret, run.Regret, run.UnsafeEvaluations} {
				for k, v := range values {
					m.measures[i][k] = append(m.measures[i][k], v)
				}
			}
		}
	}
	for i, name := range measureNames {
		fmt.Printf("\n%s, median [quartiles] over all runs:\n\n| method | runs |", name)
		for _, b := range s.Budgets {
			fmt.Printf(" %d |", b)
		}
		fmt.Printf("\n| --- | ---: |%s\n", strings.Repeat(" ---: |", len(s.Budgets)))
		for _, method := range order {
			m := methods[method]
			fmt.Printf("| `%s` | %d |", method, m.runs)
			for _, values := range m.measures[i] {
				if len(values) == 0 {
					fmt.Print(" |")
					continue
				}
				q1, median, q3 := quartiles(values)
				fmt.Printf(" %.3g [%.3g, %.3g] |", median, q1, q3)
			}
			fmt.Println()
		}
	}
}

// quartiles interpolates linearly between order statistics, as boc study does.
func quartiles(xs []float64) (q1, median, q3 float64) {
	s := slices.Sorted(slices.Values(xs))
	at := func(q float64) float64 {
		h := q * float64(len(s)-1)
		i := int(h)
		if i+1 >= len(s) {
			return s[len(s)-1]
		}
		return s[i] + (h-float64(i))*(s[i+1]-s[i])
	}
	return at(0.25), at(0.5), at(0.75)
}
