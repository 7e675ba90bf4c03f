//go:build !amd64 || purego

package kernel

// useVector stands for the amd64 switch of rqMix's vector kernel, so that
// the tests build everywhere; this build has no kernel to switch.
var useVector = false
