package typecheck

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// checkCandidates checks `candidates CALL` (a generator plugin) or
// `candidates file "x.csv"` (points read now, relative to the .bo file).
func (c *checker) checkCandidates() {
	s := c.stmts.candidates
	if s == nil {
		return
	}
	c.stmtSpan = s.Pos
	if c.declaresCategorical() && s.File == nil {
		c.errorHint(s.Pos, "give the candidates in a file, a level's name in a categorical column: candidates file \"points.csv\"",
			"a candidate generator draws numbers; a domain with categorical dimensions takes its candidates from a file")
		return
	}
	cand := &ir.Candidates{Span: s.Pos}
	switch {
	case s.File != nil:
		pts, ok := c.candidateFile(s.File)
		if !ok {
			return
		}
		cand.File, cand.Points = s.File.Value, pts
	case !isNil(s.Call):
		cc := c.call(registry.Candidates, s.Call, constCtx("candidate generator arguments must be constant"))
		if cc == nil {
			return
		}
		pts, ok := c.generateCandidates(cc)
		if !ok {
			return
		}
		cand.Call, cand.Points = cc.call, pts
	default:
		c.incomplete("candidates statement")
		return
	}
	c.prog.Candidates = cand
}

// generateCandidates runs a candidate generator's hook over the domain, with
// the problem's seed, and checks that its points lie in the domain.
func (c *checker) generateCandidates(cc *checkedCall) ([][]float64, bool) {
	h, ok := cc.plugin.Emit.(registry.CandidateEmit)
	if !ok || h == nil {
		c.errorf(cc.call.Span, "internal error: candidate generator %s has an Emit hook of type %T", cc.plugin.Name, cc.plugin.Emit)
		return nil, false
	}
	if !c.domainOK {
		return nil, false
	}
	g := &registry.CandidateGen{Args: registry.Args{Call: cc.call}, Seed: c.prog.Seed}
	for _, d := range c.prog.Dims {
		for range d.Size {
			g.Components = append(g.Components, registry.Component{Lo: d.Lo, Hi: d.Hi, Integer: d.Integer, Log: d.Log})
		}
	}
	pts, err := h(g)
	if err == nil {
		err = g.Err()
	}
	if err != nil {
		c.errorf(cc.call.Span, "%v", err)
		return nil, false
	}
	for i, p := range pts {
		if len(p) != c.prog.D {
			c.errorf(cc.call.Span, "internal error: %s gave a point of %d components, want %d", cc.plugin.Name, len(p), c.prog.D)
			return nil, false
		}
		if why := c.outside(p); why != "" {
			c.errorf(cc.call.Span, "internal error: %s gave point %d outside the domain: %s", cc.plugin.Name, i, why)
			return nil, false
		}
	}
	if len(pts) == 0 {
		c.errorf(cc.call.Span, "%s gave no points", cc.plugin.Name)
		return nil, false
	}
	return pts, true
}

// maxCandidatesFile bounds what is read of a candidates file: the points end
// up as constants in the generated code.
const maxCandidatesFile = 16 << 20

// candidateFile reads a CSV file of points: one point per row, D values in
// component order, a number or, for a categorical component, a level's name.
// An optional first row names the components; lines starting with # are
// comments. Problems are reported at the file name with
// the CSV line.
func (c *checker) candidateFile(lit *ast.StringLit) ([][]float64, bool) {
	name := lit.Value
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(c.cfg.Dir, path)
	}
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		c.errorf(lit.Pos, "cannot read candidates file %q: %v", name, err)
		return nil, false
	}
	defer f.Close()
	info, err := f.Stat()
	switch {
	case err != nil:
		c.errorf(lit.Pos, "cannot read candidates file %q: %v", name, err)
		return nil, false
	case !info.Mode().IsRegular():
		c.errorf(lit.Pos, "candidates file %q is not a regular file", name)
		return nil, false
	case info.Size() > maxCandidatesFile:
		c.errorf(lit.Pos, "candidates file %q is larger than %d MiB", name, maxCandidatesFile>>20)
		return nil, false
	case !c.domainOK:
		return nil, false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxCandidatesFile))
	if err != nil {
		c.errorf(lit.Pos, "cannot read candidates file %q: %v", name, err)
		return nil, false
	}
	pts, msg := c.readPoints(csv.NewReader(bytes.NewReader(data)))
	if msg != "" {
		c.errorf(lit.Pos, "candidates file %q: %s", name, msg)
		return nil, false
	}
	return pts, true
}

// readPoints reads the rows of a candidates file; msg says what is wrong,
// with the line.
func (c *checker) readPoints(r *csv.Reader) (pts [][]float64, msg string) {
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	r.Comment = '#'
	for row := 0; ; row++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err.Error()
		}
		line, _ := r.FieldPos(0)
		if row == 0 && c.isHeader(rec) {
			if want := c.componentNames(); strings.Join(rec, ",") != strings.Join(want, ",") {
				return nil, fmt.Sprintf("line %d: the header names %s; want %s (the domain's components in order)",
					line, strings.Join(rec, ", "), strings.Join(want, ", "))
			}
			continue
		}
		if len(rec) != c.prog.D {
			return nil, fmt.Sprintf("line %d: expected %d values (%s), got %d", line, c.prog.D, c.componentList(), len(rec))
		}
		p := make([]float64, len(rec))
		for i, field := range rec {
			x, problem := c.candidateValue(i, field)
			if problem != "" {
				return nil, fmt.Sprintf("line %d: %s", line, problem)
			}
			p[i] = x
		}
		if why := c.outside(p); why != "" {
			return nil, fmt.Sprintf("line %d: the point is outside the domain: %s", line, why)
		}
		pts = append(pts, p)
	}
	if len(pts) == 0 {
		return nil, "no points"
	}
	return pts, ""
}

// candidateValue reads component i's field: a level's name for a
// categorical component (its index), a number for the others.
func (c *checker) candidateValue(i int, field string) (float64, string) {
	if levels := c.levelsAt(i); levels != nil {
		if k := slices.Index(levels, field); k >= 0 {
			return float64(k), ""
		}
		problem := fmt.Sprintf("%q is not a level of %s", field, c.prog.ComponentName(i))
		if hint := dsl.DidYouMean(field, levels); hint != "" {
			problem += "; " + hint
		}
		return 0, problem
	}
	x, err := strconv.ParseFloat(field, 64)
	if err != nil {
		return 0, fmt.Sprintf("%q is not a number", field)
	}
	return x, ""
}

// levelsAt returns the level names of component i when it is categorical.
func (c *checker) levelsAt(i int) []string {
	for _, d := range c.prog.Dims {
		if i >= d.Offset && i < d.Offset+d.Size {
			return d.Levels
		}
	}
	return nil
}

// isHeader reports whether a first row names the components: it is their
// names, or, failing that, no field is a value of its component (a row of
// a domain of choices alone may hold no number).
func (c *checker) isHeader(rec []string) bool {
	if strings.Join(rec, ",") == strings.Join(c.componentNames(), ",") {
		return true
	}
	for i, f := range rec {
		if i < c.prog.D {
			if _, problem := c.candidateValue(i, f); problem == "" {
				return false
			}
		}
	}
	return isNumberless(rec)
}

// isNumberless reports whether no field of a row is a number.
func isNumberless(rec []string) bool {
	for _, f := range rec {
		if _, err := strconv.ParseFloat(f, 64); err == nil {
			return false
		}
	}
	return true
}
