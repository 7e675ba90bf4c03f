//go:build !amd64 || purego

package kernel

// useVector and useAVX512 stand for the amd64 switches of rqMix's vector
// kernels, so that the tests build everywhere; this build has no kernel to
// switch.
var useVector, useAVX512 = false, false
