// Package study measures how well boc's optimisers do: for each .bo file
// and each method (the file's model and acquisition, variants of them, and
// random search) it builds the program through the driver, runs it for
// many seeds, and summarises the regret of the recommendation and of the
// best observed point after each budget, with their robust counterparts
// under input noise. It keeps every run's values after each evaluation, so
// that WritePlots can chart them (package plot) where the tables show only
// the budgets. `boc study` is its command line; Run does the work and
// WriteText, WriteMarkdown and WriteJSON print the tables.
package study
