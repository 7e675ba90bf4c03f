// Package stdlib holds boc's built-in plugins. Importing it (usually for its
// side effects) registers every kernel, model, acquisition, distribution,
// benchmark function, built-in function, initial design and search with
// stdlib/registry.
package stdlib
