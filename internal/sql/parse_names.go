package sql

import "strings"

// maxNameParts is catalog.database.name.
const maxNameParts = 3

// qualifiedName reads name, db.name or catalog.db.name and returns the
// parts joined with '.': the engine resolves the catalog and database
// (SplitName undoes the join).
func (p *parser) qualifiedName(what string) (string, Pos, error) {
	name, at, err := p.ident(what)
	if err != nil {
		return "", at, err
	}
	for n := 1; p.atOp(".") && p.peek(1).kind == tkIdent; n++ {
		if n == maxNameParts {
			return "", at, errAt(p.tok().pos, "a %s has at most %d parts (catalog.database.name)", what, maxNameParts)
		}
		p.advance()
		name += "." + p.advance().text
	}
	return name, at, nil
}

// SplitName splits a name read by the parser into its parts: [name],
// [db, name] or [catalog, db, name].
func SplitName(name string) []string { return strings.Split(name, ".") }

// QuoteName prints a possibly qualified name, each part quoted when it
// needs to be, so that it parses back to the same name.
func QuoteName(name string) string {
	parts := SplitName(name)
	for i, p := range parts {
		parts[i] = QuoteIdent(p)
	}
	return strings.Join(parts, ".")
}

// indexNameTail extends a FROM name read so far with what is written
// right after it, without spaces, in the plugin's unquoted index names
// and patterns: '-', '*' and the words and numbers between them
// (logs-2026-01, logs-*, acc*). Spark gives such text no meaning there.
func (p *parser) indexNameTail(name string) string {
	if p.i == 0 || !(p.atOp("-") || p.atOp("*")) || p.tok().off != p.toks[p.i-1].end || p.toks[p.i-1].quoted {
		return name
	}
	end := p.toks[p.i-1].end
	for {
		t := p.tok()
		if t.off != end || !(isOp(t, "-") || isOp(t, "*") || t.kind == tkIdent && !t.quoted || t.kind == tkNumber) {
			return name
		}
		name += t.text
		end = t.end
		p.advance()
	}
}
