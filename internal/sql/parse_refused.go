package sql

import "strings"

// refused names Spark statements that have no meaning in Sluice, so
// they fail with the reason rather than as a syntax error: Sluice loads
// no user code or side files, and owns no Hive warehouse to load into.
// ok is false when none starts here.
func (p *parser) refused() (ok bool, err error) {
	t, next := p.tok(), p.peek(1)
	word := strings.ToUpper(t.text)
	switch {
	case (word == "ADD" || word == "LIST") && isResourceKw(next):
		return true, errAt(t.pos, "%s %s: Sluice loads no jars, files or archives; its functions are built in (SHOW FUNCTIONS lists them)", word, strings.ToUpper(next.text))
	case word == "CREATE" && p.functionAhead(1), word == "DROP" && p.functionAhead(1), word == "REFRESH" && isKw(next, "FUNCTION"):
		return true, errAt(t.pos, "%s FUNCTION: Sluice runs no user-defined functions (no JVM or Python code); its functions are built in (SHOW FUNCTIONS lists them)", word)
	case word == "LOAD" && isKw(next, "DATA"):
		return true, errAt(t.pos, "LOAD DATA: copy the files into the table's LOCATION (a stream picks them up), or INSERT INTO t SELECT * FROM json.`path` to copy their rows")
	}
	return false, nil
}

// functionAhead reports whether [OR REPLACE] [TEMPORARY | TEMP] FUNCTION
// starts n tokens ahead.
func (p *parser) functionAhead(n int) bool {
	if isKw(p.peek(n), "OR") && isKw(p.peek(n+1), "REPLACE") {
		n += 2
	}
	if isKw(p.peek(n), "TEMPORARY") || isKw(p.peek(n), "TEMP") {
		n++
	}
	return isKw(p.peek(n), "FUNCTION")
}

func isResourceKw(t token) bool {
	switch strings.ToUpper(t.text) {
	case "JAR", "JARS", "FILE", "FILES", "ARCHIVE", "ARCHIVES":
		return t.kind == tkIdent && !t.quoted
	}
	return false
}
