// Package proc holds what boc's commands do to the programs they start:
// `boc run`'s program and `boc study`'s runs end when boc ends, however it
// ends.
package proc
