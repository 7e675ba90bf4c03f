// Command boc compiles Bayesian-optimisation problems written in .bo files into
// Go optimisers. Run "boc help" for its commands.
package main

import (
	"os"

	"github.com/bocdev/boc/cli"
)

func main() { os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
