package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
)

var listPluginsCommand = &command{
	name:    "list-plugins",
	args:    "[--kind KIND] [--json]",
	summary: "list the kernels, models, acquisitions and other plugins",
	doc: `List-plugins lists every plugin boc knows, grouped by kind and sorted by name,
with its documentation and parameters: name, type, default (or "required"),
allowed range, and whether it can be learned or depend on the domain
variables. Plugins this version of boc can check but not yet generate code for
are marked "(planned)".`,
	nargs: 0,
	flags: func(fs *flag.FlagSet) func(*env, []string) int {
		kind := fs.String("kind", "", "list only plugins of `KIND` ("+strings.Join(kindNames(), ", ")+")")
		jsonOut := fs.Bool("json", false, "print a JSON array of plugins")
		return func(e *env, _ []string) int {
			kinds := registry.Kinds
			if *kind != "" {
				k := registry.Kind(*kind)
				if !isKind(k) {
					fmt.Fprintf(e.stderr, "boc list-plugins: unknown kind %q\n", *kind)
					if hint := dsl.DidYouMean(*kind, kindNames()); hint != "" {
						fmt.Fprintf(e.stderr, "    hint: %s\n", hint)
					}
					return exitUsage
				}
				kinds = []registry.Kind{k}
			}
			plugins := pluginsOf(kinds)
			if *jsonOut {
				return writeJSON(e, listingJSON(plugins))
			}
			writeListing(e.stdout, plugins)
			return exitOK
		}
	},
}

func kindNames() []string {
	names := make([]string, len(registry.Kinds))
	for i, k := range registry.Kinds {
		names[i] = string(k)
	}
	return names
}

func isKind(k registry.Kind) bool {
	for _, known := range registry.Kinds {
		if k == known {
			return true
		}
	}
	return false
}

// pluginsOf returns the plugins of the given kinds, by kind in that order and
// by name within a kind.
func pluginsOf(kinds []registry.Kind) []*registry.Plugin {
	var out []*registry.Plugin
	for _, k := range kinds {
		for _, name := range registry.Names(k) {
			p, _ := registry.Lookup(k, name)
			out = append(out, p)
		}
	}
	return out
}

// writeListing prints plugins, which come grouped by kind, under one heading
// per kind.
func writeListing(w io.Writer, plugins []*registry.Plugin) {
	for i, p := range plugins {
		if i == 0 || p.Kind != plugins[i-1].Kind {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "%s:\n", p.Kind)
		}
		p.Describe(w)
	}
}

type pluginJSON struct {
	ID      string      `json:"id"`
	Kind    string      `json:"kind"`
	Name    string      `json:"name"`
	Doc     string      `json:"doc"`
	Planned bool        `json:"planned"`
	Params  []paramJSON `json:"params"`
}

type paramJSON struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Required bool   `json:"required"`
	Default  string `json:"default,omitempty"`
	// Range is in interval notation, "(0, +Inf)": JSON has no infinities.
	Range           string `json:"range,omitempty"`
	Learnable       bool   `json:"learnable"`
	DomainDependent bool   `json:"domain_dependent"`
	Variadic        bool   `json:"variadic"`
	Doc             string `json:"doc"`
}

func listingJSON(plugins []*registry.Plugin) []pluginJSON {
	out := make([]pluginJSON, len(plugins))
	for i, p := range plugins {
		params := make([]paramJSON, len(p.Params))
		for j, prm := range p.Params {
			params[j] = paramJSON{Name: prm.Name, Type: prm.TypeString(), Required: !prm.Default.IsSet(), Default: prm.Default.String(),
				Learnable: prm.Learnable, DomainDependent: prm.DomainDependent, Variadic: prm.Variadic, Doc: prm.Doc}
			if prm.Range != nil {
				params[j].Range = prm.Range.String()
			}
		}
		out[i] = pluginJSON{ID: p.ID(), Kind: string(p.Kind), Name: p.Name, Doc: p.Doc, Planned: !p.Built(), Params: params}
	}
	return out
}

// writeJSON prints v as indented JSON on stdout.
func writeJSON(e *env, v any) int {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return e.failf("%v", err)
	}
	return exitOK
}
