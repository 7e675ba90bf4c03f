package typecheck

// The tests check files against boc's built-in plugins, which register in
// registry.Default; the package itself imports no plugin set.
import _ "github.com/bocdev/boc/stdlib"
