package search

// besideStep is how far Beside moves each coordinate of the unit cube: a
// tenth of the smallest default lengthscale (0.01 of a dimension's range),
// so that the start stays in the point's neighbourhood for any fitted model.
const besideStep = 1e-3

// Beside writes to dst the point of the unit cube besideStep from u along
// each coordinate, up in the lower half of the range and down in the upper
// one, so that it stays in the cube. It is the start a search is
// given beside the incumbent when the acquisition vanishes there and has no
// gradient, as corrected noisy EI does (f(x) − f(x⁺) is certain at x = x⁺):
// a start at the incumbent itself scores log 0 and is never refined, so the
// incumbent's neighbourhood, where a noise-free problem's last improvements
// are, would be searched by the raw candidates alone.
func Beside(dst, u []float64) {
	for j, v := range u {
		if v < 0.5 {
			dst[j] = v + besideStep
		} else {
			dst[j] = v - besideStep
		}
	}
}
