package registry

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Describe writes what `boc list-plugins` prints of p, also what an
// editor shows on hovering its name: the name and doc, then one aligned
// line per parameter with its type, default (or "required"), range, traits
// and doc.
func (p *Plugin) Describe(w io.Writer) {
	planned := ""
	if !p.Built() {
		planned = " (planned)"
	}
	fmt.Fprintf(w, "  %s%s  %s\n", p.Name, planned, p.Doc)
	if len(p.Params) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, prm := range p.Params {
		fmt.Fprintf(tw, "      %s\t%s\t%s\t%s\t%s\t%s\n", prm.Name, prm.TypeString(), prm.DefaultString(), prm.RangeString(), strings.Join(prm.Traits(), ", "), prm.Doc)
	}
	tw.Flush()
}

// DefaultString is the parameter's default as "default V", or "required".
func (prm Param) DefaultString() string {
	if prm.Default.IsSet() {
		return "default " + prm.Default.String()
	}
	return "required"
}

// RangeString is the parameter's range as "in [lo, hi]", or "".
func (prm Param) RangeString() string {
	if prm.Range != nil {
		return "in " + prm.Range.String()
	}
	return ""
}

// Traits names what the parameter accepts beyond a plain value.
func (prm Param) Traits() []string {
	var traits []string
	if prm.Learnable {
		traits = append(traits, "learnable")
	}
	if prm.DomainDependent {
		traits = append(traits, "domain-dependent")
	}
	if prm.Variadic {
		traits = append(traits, "variadic")
	}
	return traits
}
