package dsl

import "fmt"

// Suggest returns the candidate closest to name by edit distance, if it is close
// enough to be a likely misspelling, for "did you mean" hints. Ties go to the
// earlier candidate, so the result is deterministic for a sorted list.
func Suggest(name string, candidates []string) (string, bool) {
	best, bestDist := "", -1
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := editDistance(name, c)
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := 1 + len(name)/3
	if bestDist < 0 || bestDist > limit || bestDist >= len(name) {
		return "", false
	}
	return best, true
}

// DidYouMean returns a hint "did you mean X?" for the closest candidate, or "".
func DidYouMean(name string, candidates []string) string {
	if s, ok := Suggest(name, candidates); ok {
		return fmt.Sprintf("did you mean %q?", s)
	}
	return ""
}

// editDistance is the optimal-string-alignment distance: Levenshtein plus
// transposition of adjacent characters, the most common typing slip.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
