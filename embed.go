// Package boc carries the source of the boc module's runtime inside every boc
// binary, so that "boc build" and "boc run" work offline on a machine with
// nothing but a Go toolchain (see internal/gobuild).
package boc

import "embed"

// Module holds go.mod, go.sum and the runtime packages emitted programs
// import. Test files and testdata are embedded too but skipped on extraction.
//
//go:embed go.mod go.sum runtime
var Module embed.FS
