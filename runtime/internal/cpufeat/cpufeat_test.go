//go:build amd64 && !purego

package cpufeat

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestAgreesWithProcCPUInfo compares the CPUID answer with the flags Linux
// reports (Linux lists avx2 only when it saves the YMM registers, and
// avx512f only when it saves the ZMM registers).
func TestAgreesWithProcCPUInfo(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc/cpuinfo")
	}
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip(err)
	}
	var flags []string
	for line := range strings.Lines(string(data)) {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			flags = strings.Fields(value)
			break
		}
	}
	if flags == nil {
		t.Skip("no flags line in /proc/cpuinfo")
	}
	want := slices.Contains(flags, "avx2") && slices.Contains(flags, "fma")
	if AVX2FMA != want {
		t.Errorf("AVX2FMA = %v, /proc/cpuinfo lists avx2 and fma: %v", AVX2FMA, want)
	}
	want512 := want && slices.Contains(flags, "avx512f") && slices.Contains(flags, "avx512dq") &&
		slices.Contains(flags, "avx512vl")
	if AVX512 != want512 {
		t.Errorf("AVX512 = %v, /proc/cpuinfo lists avx2, fma, avx512f, avx512dq and avx512vl: %v", AVX512, want512)
	}
}
