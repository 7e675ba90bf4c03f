package dsl

import "testing"

func TestSuggest(t *testing.T) {
	kernels := []string{"matern12", "matern32", "matern52", "rq", "se"}
	tests := []struct {
		name       string
		candidates []string
		want       string
		ok         bool
	}{
		{"matern42", kernels, "matern12", true}, // ties go to the earlier candidate
		{"aqcuisition", []string{"acquisition", "budget"}, "acquisition", true},
		{"domian", []string{"domain", "model"}, "domain", true},
		{"budgte", []string{"budget"}, "budget", true},
		{"xyz", kernels, "", false},
		{"s", kernels, "", false},  // one letter is too short to guess from
		{"se", kernels, "", false}, // an exact match is not a suggestion
		{"", kernels, "", false},
	}
	for _, tt := range tests {
		got, ok := Suggest(tt.name, tt.candidates)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Suggest(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
	if h := DidYouMean("budgte", []string{"budget"}); h != `did you mean "budget"?` {
		t.Errorf("DidYouMean = %q", h)
	}
	if h := DidYouMean("qqq", []string{"budget"}); h != "" {
		t.Errorf("DidYouMean with no close candidate = %q, want empty", h)
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"ab", "ba", 1}, {"matern52", "matern25", 1},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
