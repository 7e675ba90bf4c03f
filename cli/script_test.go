package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bocdev/boc/runtime/journal/journaltest"
	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script from the actual output")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"boc": func() { os.Exit(Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the command-line scenarios in testdata/script. Scripts
// that build programs need the go command; they share the test's build and
// module caches but have the module proxy switched off, which proves that
// building works offline.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:   "testdata/script",
		Setup: setupScript,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"jsonhas":          cmdJSONHas,
			"postgres-journal": cmdPostgresJournal,
		},
		Condition:     postgresCondition,
		UpdateScripts: *update,
	})
}

var (
	goEnvOnce sync.Once
	goEnv     map[string]string
	goEnvErr  error
)

// hostGoEnv returns the go command's cache locations on this machine.
func hostGoEnv() (map[string]string, error) {
	goEnvOnce.Do(func() {
		out, err := exec.Command("go", "env", "-json", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
		if err != nil {
			goEnvErr = err
			return
		}
		goEnvErr = json.Unmarshal(out, &goEnv)
	})
	return goEnv, goEnvErr
}

func setupScript(e *testscript.Env) error {
	vars := map[string]string{
		"HOME":           filepath.Join(e.WorkDir, "home"),
		"XDG_CACHE_HOME": filepath.Join(e.WorkDir, "cache"), // boc's extracted runtime
		"GOPROXY":        "off",
		"GOSUMDB":        "off",
		"GOTOOLCHAIN":    "local",
		"GOFLAGS":        "-mod=mod",
	}
	if goenv, err := hostGoEnv(); err == nil {
		for k, v := range goenv {
			vars[k] = v
		}
	}
	for k, v := range vars {
		e.Setenv(k, v)
	}
	return nil
}

// cmdJSONHas checks a JSON object in a file (or "stdout"/"stderr"):
//
//	jsonhas FILE PATH[=JSON]...
//
// FILE must hold JSON. Each PATH is a dot-separated path of object keys and
// array indices that must exist; with =JSON its value must equal that JSON
// text once re-encoded (evaluations=4, problem="p"). Negated, no PATH may
// match.
func cmdJSONHas(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: jsonhas FILE PATH[=JSON]...")
	}
	var doc any
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc); err != nil {
		ts.Fatalf("%s is not JSON: %v", args[0], err)
	}
	for _, arg := range args[1:] {
		path, want, hasWant := strings.Cut(arg, "=")
		got, found := lookupJSON(doc, path)
		ok := found
		if found && hasWant {
			var wantVal any
			if err := json.Unmarshal([]byte(want), &wantVal); err != nil {
				ts.Fatalf("jsonhas %s: bad expected value: %v", arg, err)
			}
			gotText, _ := json.Marshal(got)
			wantText, _ := json.Marshal(wantVal)
			ok = string(gotText) == string(wantText)
			if !ok && !neg {
				ts.Fatalf("%s: %s is %s, want %s", args[0], path, gotText, wantText)
			}
		}
		switch {
		case !ok && !neg:
			ts.Fatalf("%s: no %s", args[0], path)
		case ok && neg:
			ts.Fatalf("%s: unexpected %s", args[0], arg)
		}
	}
}

func lookupJSON(doc any, path string) (any, bool) {
	for _, key := range strings.Split(path, ".") {
		switch v := doc.(type) {
		case map[string]any:
			var ok bool
			if doc, ok = v[key]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			doc = v[i]
		default:
			return nil, false
		}
	}
	return doc, true
}

// postgresCondition is the script condition [postgres]: whether the test
// server of runtime/journal/journaltest answers. Without one a script
// skips, unless BOC_REQUIRE_POSTGRES=1, when the condition fails it.
func postgresCondition(cond string) (bool, error) {
	if cond != "postgres" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	return journaltest.Available()
}

// cmdPostgresJournal sets the variable VAR to the URL of a journal in a
// schema of its own on the test server (runtime/journal/journaltest),
// dropped when the script ends; scripts check [postgres] first:
//
//	postgres-journal VAR
func cmdPostgresJournal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: postgres-journal VAR")
	}
	schema, err := journaltest.NewSchema()
	ts.Check(err)
	ts.Defer(func() { schema.Drop() })
	ts.Setenv(args[0], schema.URL)
}
