package cli

import (
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
)

var versionCommand = &command{
	name:    "version",
	summary: "print boc's version and the Go version it was built with",
	doc:     `Version prints boc's module version ("devel" for a build from a checkout), the Go version that built it, and the platform.`,
	nargs:   0,
	flags: func(*flag.FlagSet) func(*env, []string) int {
		return func(e *env, _ []string) int {
			fmt.Fprintf(e.stdout, "boc %s %s %s/%s\n", moduleVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return exitOK
		}
	},
}

// moduleVersion is boc's module version as recorded by the go command: a tag
// for `go install ...@v1.2.3`, "devel" for builds from a checkout, followed by
// the VCS revision when the build recorded one.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := bi.Main.Version
	if v != "" && v != "(devel)" {
		return v
	}
	v = "devel"
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		v += " " + rev[:min(12, len(rev))]
		if settings["vcs.modified"] == "true" {
			v += "+dirty"
		}
	}
	return v
}
