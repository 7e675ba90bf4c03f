// Package docs holds boc's user documentation. Its test parses and checks every
// `bo` example in the Markdown files, so the documentation cannot drift from
// the compiler.
package docs
