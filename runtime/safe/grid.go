package safe

// Grid returns the points of the full grid with counts[i] ≥ 2 values
// k/(counts[i]−1) of component i, in unit coordinates, row-major, the last
// component varying fastest: the decision set of a safe exploration of a
// continuous domain.
func Grid(counts []int) []float64 {
	total := 1
	for _, m := range counts {
		total *= m
	}
	d := len(counts)
	out := make([]float64, total*d)
	for p := range total {
		rest := p
		for i := d - 1; i >= 0; i-- {
			m := counts[i]
			out[p*d+i] = float64(rest%m) / float64(m-1)
			rest /= m
		}
	}
	return out
}
