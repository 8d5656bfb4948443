package cli

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"sluice/internal/connector/registry"
	"sluice/internal/engine"
	"sluice/internal/expr/functions"
	"sluice/internal/job"
	"sluice/internal/sql"
)

// completer is the shell's tab completion (readline.AutoCompleter):
// meta commands at the start of a line, table names where a table goes,
// option keys inside OPTIONS ( and WITH (, else keywords, functions,
// tables and the columns of the tables the line names. Tables and
// columns come from SHOW TABLES and DESCRIBE through the executor, so
// they work against a server too; they are kept a few seconds so
// pressing Tab twice asks once.
type completer struct {
	eng executor
	ctx context.Context

	mu      sync.Mutex
	fetched time.Time
	tables  []string
	columns map[string][]string // by lower-cased table name
}

// completionTTL is how long a listing of tables and columns is reused.
const completionTTL = 5 * time.Second

// sqlKeywords are the words completion offers besides names.
var sqlKeywords = strings.Fields(`SELECT FROM WHERE GROUP BY ORDER HAVING LIMIT OFFSET JOIN LEFT RIGHT
	INNER OUTER FULL CROSS SEMI ANTI ON AS AND OR NOT NULL IS IN LIKE ILIKE RLIKE BETWEEN CASE WHEN
	THEN ELSE END DISTINCT UNION ALL EXCEPT INTERSECT WITH INSERT INTO OVERWRITE VALUES CREATE TABLE
	DROP IF EXISTS USING LOCATION OPTIONS PARTITIONED COMMENT TBLPROPERTIES SHOW TABLES DATABASES
	DATABASE STREAMS SETTINGS DESCRIBE EXPLAIN STREAM MATERIALIZED VIEW VIEWS INDEX SKIPPING ALTER
	REFRESH START STOP SET USE CAST TRUE FALSE ASC DESC NULLS FIRST LAST OVER PARTITION WINDOW
	INTERVAL DATE TIMESTAMP WATERMARK FOR LATERAL PIVOT UNPIVOT QUALIFY TABLESAMPLE`)

// tableKeywords are the words a table name follows.
var tableKeywords = map[string]bool{"FROM": true, "JOIN": true, "INTO": true, "TABLE": true, "DESCRIBE": true,
	"UPDATE": true, "EXISTS": true, "TBLPROPERTIES": true, `\D`: true, ".SCHEMA": true, "OVERWRITE": true}

// Do implements readline.AutoCompleter: the endings of the candidates
// for the word before pos, and that word's length.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	before := string(line[:min(pos, len(line))])
	start := len(before)
	for start > 0 {
		r := rune(before[start-1])
		if r >= 0x80 || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
			break
		}
		start--
	}
	word, head := before[start:], before[:start]
	if strings.Count(head, "'")%2 == 1 {
		return nil, 0 // inside a string
	}
	trimmed := strings.TrimLeft(head, " \t")
	if strings.HasPrefix(trimmed, `\`) || strings.HasPrefix(trimmed, ".") {
		if !strings.ContainsAny(strings.TrimRight(trimmed, " \t"), " \t") && !strings.HasSuffix(trimmed, " ") {
			return c.metaNames(trimmed, word), len(word)
		}
	}
	var cands []candidate
	switch keys, ok := optionKeysAt(head); {
	case ok:
		cands = words(keys, " ")
	case strings.HasSuffix(head, "."):
		cands = words(c.columnsOf(qualifierOf(head), string(line)), "")
	default:
		prev := strings.ToUpper(lastToken(head))
		if tableKeywords[prev] {
			cands = words(c.tableNames(), " ")
		} else if prev == `\DF` {
			cands = functionNames()
		} else {
			cands = append(cands, keywords(word)...)
			cands = append(cands, functionNames()...)
			cands = append(cands, words(c.tableNames(), " ")...)
			cands = append(cands, words(c.columnsOf("", string(line)), "")...)
		}
	}
	return endings(cands, word), len(word)
}

// candidate is one completion: its text and what follows it.
type candidate struct{ text, after string }

func words(ws []string, after string) []candidate {
	out := make([]candidate, len(ws))
	for i, w := range ws {
		out[i] = candidate{w, after}
	}
	return out
}

// keywords are in the case the word is typed in.
func keywords(word string) []candidate {
	lower := word != "" && word == strings.ToLower(word)
	out := make([]candidate, len(sqlKeywords))
	for i, k := range sqlKeywords {
		if lower {
			k = strings.ToLower(k)
		}
		out[i] = candidate{k, " "}
	}
	return out
}

func functionNames() []candidate {
	var out []candidate
	for _, d := range functions.All() {
		if d.Operator || strings.ContainsAny(d.Name, " ") {
			continue
		}
		out = append(out, candidate{d.Name, "("})
		for _, a := range d.Aliases {
			out = append(out, candidate{a, "("})
		}
	}
	return out
}

// endings keeps the candidates word begins (ignoring case) and returns
// what each adds to it, once each, sorted.
func endings(cands []candidate, word string) [][]rune {
	seen := map[string]bool{}
	var out []string
	for _, cd := range cands {
		if len(cd.text) < len(word) || !strings.EqualFold(cd.text[:len(word)], word) {
			continue
		}
		end := cd.text[len(word):] + cd.after
		if !seen[end] {
			seen[end] = true
			out = append(out, end)
		}
	}
	sort.Strings(out)
	rs := make([][]rune, len(out))
	for i, s := range out {
		rs[i] = []rune(s)
	}
	return rs
}

func (c *completer) metaNames(typed, word string) [][]rune {
	var cands []candidate
	for _, m := range metaCommands {
		for _, n := range m.names {
			if strings.HasPrefix(n, typed) {
				cands = append(cands, candidate{n[len(typed):], " "})
			}
		}
	}
	return endings(cands, word)
}

// lastToken is the last word of s, "" when s ends in anything else
// than blanks after a word.
func lastToken(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// qualifierOf is the name before the '.' that ends head ("t" of "t.").
func qualifierOf(head string) string {
	head = strings.TrimSuffix(head, ".")
	i := len(head)
	for i > 0 && (isNameByte(head[i-1])) {
		i--
	}
	return head[i:]
}

func isNameByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// optionKeysAt reports whether head ends at a key of an unclosed
// OPTIONS ( or WITH ( list, and the keys that go there: the connector's
// of USING, or every connector's; a job's WITH options.
func optionKeysAt(head string) ([]string, bool) {
	open := strings.LastIndexByte(head, '(')
	if open < 0 || strings.ContainsRune(head[open:], ')') {
		return nil, false
	}
	// A key follows '(' or ','; a value follows a key.
	tail := strings.TrimRight(head[open+1:], " \t")
	if tail != "" && !strings.HasSuffix(tail, ",") {
		return nil, false
	}
	switch strings.ToUpper(lastToken(head[:open])) {
	case "OPTIONS":
		using := ""
		fs := strings.Fields(head[:open])
		for i := 0; i+1 < len(fs); i++ {
			if strings.EqualFold(fs[i], "USING") {
				using = fs[i+1]
			}
		}
		if f, err := registry.Lookup(using); err == nil {
			return f.OptionKeys, true
		}
		var keys []string
		for _, f := range registry.All() {
			keys = append(keys, f.OptionKeys...)
		}
		return keys, true
	case "WITH":
		var keys []string
		for _, o := range job.Options {
			keys = append(keys, o.Key)
		}
		return append(keys, registry.StreamOptionKeys()...), true
	}
	return nil, false
}

// tableNames are the current database's tables, from SHOW TABLES.
func (c *completer) tableNames() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refresh()
	return c.tables
}

// refresh lists the tables again once the last listing is stale.
func (c *completer) refresh() {
	if time.Since(c.fetched) < completionTTL && c.columns != nil {
		return
	}
	c.fetched, c.tables, c.columns = time.Now(), nil, map[string][]string{}
	if r, err := c.query("SHOW TABLES"); err == nil {
		c.tables = resultColumn(r, "name")
	}
}

// columnsOf lists the columns of table, or when table is "" of the
// known tables the line names (of every table when it names none).
func (c *completer) columnsOf(table, line string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refresh()
	var names []string
	if table != "" {
		names = []string{table}
	} else {
		words := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(line), func(r rune) bool { return r > 0x7f || !isNameByte(byte(r)) }) {
			words[w] = true
		}
		for _, t := range c.tables {
			if words[strings.ToLower(t)] {
				names = append(names, t)
			}
		}
		if len(names) == 0 && len(c.tables) <= 20 {
			names = c.tables
		}
	}
	var out []string
	for _, t := range names {
		key := strings.ToLower(t)
		cols, ok := c.columns[key]
		if !ok {
			if r, err := c.query("DESCRIBE " + sql.QuoteName(t)); err == nil {
				for _, col := range resultColumn(r, "col_name") {
					if !strings.HasPrefix(col, "#") {
						cols = append(cols, col)
					}
				}
			}
			c.columns[key] = cols
		}
		out = append(out, cols...)
	}
	return out
}

func (c *completer) query(text string) (*engine.Result, error) {
	st, err := sql.ParseOne(text)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(c.ctx, 2*time.Second)
	defer cancel()
	return c.eng.ExecuteStatement(ctx, st)
}
