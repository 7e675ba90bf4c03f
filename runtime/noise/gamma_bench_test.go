package noise

import (
	"testing"

	"gonum.org/v1/gonum/mathext"
)

var sink float64

// BenchmarkChi2 times Chi2 beside gonum's inverse of the incomplete gamma
// function (cephes' igami), which it replaced, on the shapes of the input
// noise of the MMD goldens (χ²(0.5), χ²(7)) in both tails:
// go test ./runtime/noise -bench Chi2 -benchmem.
func BenchmarkChi2(b *testing.B) {
	for _, c := range []struct {
		name   string
		df, lo float64
	}{{"df=0.5/lower", 0.5, 0.001}, {"df=0.5/upper", 0.5, 0.3}, {"df=7/upper", 7, 0.3}} {
		u := func(i int) float64 { return c.lo + 0.2*float64(i%100)/100 }
		b.Run(c.name+"/boc", func(b *testing.B) {
			for i := range b.N {
				sink += Chi2(c.df, u(i))
			}
		})
		b.Run(c.name+"/gonum", func(b *testing.B) {
			for i := range b.N {
				sink += 2 * mathext.GammaIncRegCompInv(c.df/2, 1-u(i))
			}
		})
	}
}
