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
	"strconv"
	"strings"

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
	if c.declaresCategorical() {
		c.errorHint(s.Pos, "search the domain instead", "candidates over a domain with categorical dimensions are not supported yet")
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

// candidateFile reads a CSV file of points: one point per row, D numbers in
// component order. An optional first row names the components; lines
// starting with # are comments. Problems are reported at the file name with
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
		if row == 0 && isHeader(rec) {
			if want := c.componentNames(); strings.Join(rec, ",") != strings.Join(want, ",") {
				return nil, fmt.Sprintf("line %d: the header names %s; want %s (the domain's components in order)",
					line, strings.Join(rec, ", "), strings.Join(want, ", "))
			}
			continue
		}
		if len(rec) != c.prog.D {
			return nil, fmt.Sprintf("line %d: expected %d numbers (%s), got %d", line, c.prog.D, c.componentList(), len(rec))
		}
		p := make([]float64, len(rec))
		for i, field := range rec {
			x, err := strconv.ParseFloat(field, 64)
			if err != nil {
				return nil, fmt.Sprintf("line %d: %q is not a number", line, field)
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

// isHeader reports whether no field of a row is a number.
func isHeader(rec []string) bool {
	for _, f := range rec {
		if _, err := strconv.ParseFloat(f, 64); err == nil {
			return false
		}
	}
	return true
}
