//go:build !purego

package cpufeat

func hasAVX2FMA() bool {
	const (
		fma     = 1 << 12 // CPUID.1:ECX
		osxsave = 1 << 27 // CPUID.1:ECX
		avx     = 1 << 28 // CPUID.1:ECX
		avx2    = 1 << 5  // CPUID.(7,0):EBX
		ymmSave = 0b110   // XCR0: the OS saves the XMM and YMM state
	)
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf < 7 {
		return false
	}
	_, _, ecx, _ := cpuid(1, 0)
	if ecx&(fma|osxsave|avx) != fma|osxsave|avx {
		return false
	}
	if xcr0, _ := xgetbv0(); xcr0&ymmSave != ymmSave {
		return false
	}
	_, ebx, _, _ := cpuid(7, 0)
	return ebx&avx2 != 0
}

// cpuid executes CPUID for the leaf and subleaf.
func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)

// xgetbv0 reads XCR0. Call it only when CPUID reports OSXSAVE.
func xgetbv0() (eax, edx uint32)

func hasAVX512() bool {
	const (
		avx512f  = 1 << 16     // CPUID.(7,0):EBX
		avx512dq = 1 << 17     // CPUID.(7,0):EBX
		avx512vl = 1 << 31     // CPUID.(7,0):EBX
		zmmSave  = 0b1110_0110 // XCR0: XMM, YMM, opmask, ZMM_Hi256 and Hi16_ZMM state
	)
	if xcr0, _ := xgetbv0(); xcr0&zmmSave != zmmSave {
		return false
	}
	_, ebx, _, _ := cpuid(7, 0)
	return ebx&(avx512f|avx512dq|avx512vl) == avx512f|avx512dq|avx512vl
}
