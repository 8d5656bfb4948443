package slt

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Kind is what a record checks.
type Kind int

// Record kinds.
const (
	Statement Kind = iota
	Query
	// Write lands a file: "write <path>", then its lines up to the next
	// blank line; path is relative to ${TMPDIR}.
	Write
	// Restart reopens the engine over the same data directory when the
	// runner has a Restart hook (the restart pass of streaming files),
	// and does nothing otherwise.
	Restart
)

// Sort modes of a query record.
const (
	NoSort    = "nosort"
	RowSort   = "rowsort"
	ValueSort = "valuesort"
	Explain   = "explain"
)

// Script is one parsed .slt file.
type Script struct {
	Name    string
	Skip    string // the reason of a "# skip:" header, "" to run
	Records []*Record
	lines   []string
}

// Record is one statement or query with its expectation.
type Record struct {
	Line int // 1-based line of the record's header
	Kind Kind
	SQL  string // the SQL; for Write, the file's content
	Path string // Write: the file, relative to ${TMPDIR}

	WantError    bool   // statement error
	ErrorPattern string // substring or regexp; "" accepts any error

	Types string // query column letters; "" for query explain
	// Lines, when set, keeps only the result lines it matches: for
	// SHOW/DESCRIBE output that also carries timings and rates.
	Lines    *regexp.Regexp
	Sort     string   // NoSort, RowSort, ValueSort or Explain
	Expected []string // expected result lines
	// PPL marks a query written in PPL ("query <types> [sort] ppl"): it
	// runs as the SQL statement PPL '<text>'.
	PPL bool

	// Line indexes (0-based) -update rewrites: the header, and the
	// expected lines [resStart, resEnd); resStart < 0 when the record has
	// no "----" section yet (then sqlEnd is where one goes).
	header, sqlEnd, resStart, resEnd int
	head                             string // the header line's text
}

// Parse reads a script; errors name the file and line.
func Parse(name, text string) (*Script, error) {
	s := &Script{Name: name, lines: strings.Split(text, "\n")}
	lines := s.lines
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t\r")
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			if reason, ok := strings.CutPrefix(strings.TrimSpace(line[1:]), "skip:"); ok && len(s.Records) == 0 {
				s.Skip = strings.TrimSpace(reason)
				if s.Skip == "" {
					s.Skip = "skipped"
				}
			}
			continue
		}
		r, next, err := parseRecord(lines, i)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
		s.Records = append(s.Records, r)
		i = next - 1
	}
	return s, nil
}

// parseRecord reads the record whose header is lines[i] and returns the
// index of the first line after it.
func parseRecord(lines []string, i int) (*Record, int, error) {
	header := strings.TrimRight(lines[i], " \t\r")
	fields := strings.Fields(header)
	r := &Record{Line: i + 1, header: i, head: header, resStart: -1}
	switch {
	case fields[0] == "statement" && len(fields) >= 2 && fields[1] == "ok":
		if len(fields) > 2 {
			return nil, 0, fmt.Errorf("unexpected %q after statement ok", fields[2])
		}
	case fields[0] == "statement" && len(fields) >= 2 && fields[1] == "error":
		r.WantError = true
		_, r.ErrorPattern, _ = strings.Cut(header, "error")
		r.ErrorPattern = strings.TrimSpace(r.ErrorPattern)
	case fields[0] == "write":
		if len(fields) != 2 {
			return nil, 0, fmt.Errorf("write wants one relative path, got %q", header)
		}
		p := path.Clean(fields[1])
		if path.IsAbs(p) || p == "." || p == ".." || strings.HasPrefix(p, "../") {
			return nil, 0, fmt.Errorf("write path %q must stay inside ${TMPDIR}", fields[1])
		}
		r.Kind, r.Path = Write, p
		return parseWrite(lines, i, r)
	case fields[0] == "restart":
		if len(fields) != 1 {
			return nil, 0, fmt.Errorf("unexpected %q after restart", fields[1])
		}
		r.Kind = Restart
		if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
			return nil, 0, fmt.Errorf("restart takes no body; end it with a blank line")
		}
		return r, i + 1, nil
	case fields[0] == "query" && len(fields) == 2 && fields[1] == Explain:
		r.Kind, r.Sort = Query, Explain
	case fields[0] == "query" && len(fields) >= 2:
		r.Kind, r.Types, r.Sort = Query, fields[1], NoSort
		for _, c := range r.Types {
			if !strings.ContainsRune("IRTBD?", c) {
				return nil, 0, fmt.Errorf("unknown column type %q in %q (want I, R, T, B, D or ?)", c, r.Types)
			}
		}
		rest := fields[2:]
		if len(rest) > 0 && rest[0] == "ppl" {
			r.PPL, rest = true, rest[1:]
		}
		if len(rest) > 0 && rest[0] != "lines" && rest[0] != "ppl" {
			switch rest[0] {
			case NoSort, RowSort, ValueSort:
				r.Sort = rest[0]
			default:
				return nil, 0, fmt.Errorf("unknown sort mode %q (want nosort, rowsort or valuesort)", rest[0])
			}
			rest = rest[1:]
		}
		if len(rest) > 0 && rest[0] == "ppl" {
			r.PPL, rest = true, rest[1:]
		}
		if len(rest) > 0 {
			if rest[0] != "lines" || len(rest) == 1 {
				return nil, 0, fmt.Errorf("unexpected %q after the sort mode (want lines <regexp>)", strings.Join(rest, " "))
			}
			_, pattern, _ := strings.Cut(header, " lines ")
			re, err := regexp.Compile(strings.TrimSpace(pattern))
			if err != nil {
				return nil, 0, fmt.Errorf("lines: %w", err)
			}
			r.Lines = re
		}
	default:
		return nil, 0, fmt.Errorf("unknown record %q (want statement ok, statement error, query <types>, query explain, write <path> or restart)", header)
	}

	j := i + 1
	var sql []string
	for ; j < len(lines); j++ {
		l := strings.TrimRight(lines[j], " \t\r")
		if l == "" || l == "----" {
			break
		}
		sql = append(sql, strings.TrimRight(lines[j], "\r"))
	}
	if len(sql) == 0 {
		return nil, 0, fmt.Errorf("record has no SQL")
	}
	r.SQL = strings.Join(sql, "\n")
	r.sqlEnd = j
	if j < len(lines) && strings.TrimRight(lines[j], " \t\r") == "----" {
		if r.Kind != Query {
			return nil, 0, fmt.Errorf("statement records have no ---- section")
		}
		j++
		r.resStart = j
		for ; j < len(lines); j++ {
			l := strings.TrimRight(lines[j], " \t\r")
			if l == "" {
				break
			}
			r.Expected = append(r.Expected, l)
		}
		r.resEnd = j
	}
	return r, j, nil
}

// parseWrite reads a write record's content: every line up to the next
// blank line, kept as written (a file may be empty).
func parseWrite(lines []string, i int, r *Record) (*Record, int, error) {
	j := i + 1
	var content []string
	for ; j < len(lines); j++ {
		l := strings.TrimRight(lines[j], "\r")
		if strings.TrimSpace(l) == "" {
			break
		}
		content = append(content, l)
	}
	if len(content) > 0 {
		r.SQL = strings.Join(content, "\n") + "\n"
	}
	return r, j, nil
}
