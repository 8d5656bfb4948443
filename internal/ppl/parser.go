package ppl

import (
	"strconv"
	"strings"

	"sluice/internal/sql"
)

// maxDepth bounds nesting so hostile input gets an error, not a stack
// overflow.
const maxDepth = 500

// maxCommands bounds a pipeline: each command may nest one more SELECT.
const maxCommands = 1000

type parser struct {
	src   string
	toks  []token
	i     int
	depth int
}

// Parse reads a PPL query whose text starts at line 1, column 1.
func Parse(text string) (*Pipeline, error) {
	return ParseAt(text, sql.Pos{Line: 1, Col: 1})
}

// ParseAt reads a PPL query whose first character is at position at of
// an enclosing text (a SQL statement's PPL '...'): every position in
// errors and in the tree counts from there.
func ParseAt(text string, at sql.Pos) (*Pipeline, error) {
	return parse(text, at, nil)
}

// ParseLiteral reads the PPL query of a SQL statement's PPL '...':
// positions are the statement's even after ” or backslash escapes.
func ParseLiteral(q *sql.PPL) (*Pipeline, error) {
	var m []sql.Pos
	if q.Raw != "" && q.Raw != q.Text {
		m = literalPositions(q.Text, q.Raw, q.TextAt)
	}
	return parse(q.Text, q.TextAt, m)
}

func parse(text string, at sql.Pos, posMap []sql.Pos) (*Pipeline, error) {
	p := &parser{src: text, toks: tokenize(text, at, posMap)}
	pl, err := p.pipeline(false)
	if err != nil {
		return nil, err
	}
	if p.tok().kind != tkEOF {
		return nil, p.errExpected("'|' or end of query")
	}
	return pl, nil
}

func (p *parser) tok() token { return p.toks[p.i] }

func (p *parser) peek(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.kind != tkEOF && t.kind != tkError {
		p.i++
	}
	return t
}

func isKw(t token, kw string) bool {
	return t.kind == tkIdent && !t.quoted && strings.EqualFold(t.text, kw)
}

func isOp(t token, op string) bool { return t.kind == tkOp && t.text == op }

func (p *parser) atKw(kw string) bool { return isKw(p.tok(), kw) }
func (p *parser) atOp(op string) bool { return isOp(p.tok(), op) }

func (p *parser) acceptKw(kw string) bool {
	if p.atKw(kw) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) acceptOp(op string) bool {
	if p.atOp(op) {
		p.advance()
		return true
	}
	return false
}

func describe(t token) string {
	switch t.kind {
	case tkEOF:
		return "end of query"
	case tkString:
		return "string " + strconv.Quote(t.text)
	}
	return "'" + t.text + "'"
}

func (p *parser) errExpected(what string) error {
	t := p.tok()
	if t.kind == tkError {
		return syntaxErr(t.pos, "%s", t.text)
	}
	return syntaxErr(t.pos, "expected %s but found %s", what, describe(t))
}

func (p *parser) expectOp(op string) error {
	if !p.acceptOp(op) {
		return p.errExpected("'" + op + "'")
	}
	return nil
}

func (p *parser) expectKw(kw string) error {
	if !p.acceptKw(kw) {
		return p.errExpected(kw)
	}
	return nil
}

// atEnd reports whether the current command's arguments are over.
func (p *parser) atEnd() bool {
	t := p.tok()
	return t.kind == tkEOF || isOp(t, "|") || isOp(t, "]")
}

// name reads a field name: an identifier, possibly dotted (a.b.c), a
// back-quoted name, or one with a trailing * (for fields and wildcards).
func (p *parser) name(what string) (Name, error) { return p.fieldName(what, false) }

// wildName is name with * allowed anywhere in it (fields, rename).
func (p *parser) wildName(what string) (Name, error) { return p.fieldName(what, true) }

func (p *parser) fieldName(what string, wild bool) (Name, error) {
	t := p.tok()
	if t.kind != tkIdent && !(wild && isOp(t, "*")) {
		return Name{}, p.errExpected(what)
	}
	p.advance()
	var b strings.Builder
	b.WriteString(t.text)
	end := t.end
	// Parts written together make one name: a.b, *_id, ip*, a.*.
	for {
		n := p.tok()
		if n.off != end || n.kind == tkEOF {
			break
		}
		if isOp(n, ".") {
			next := p.peek(1)
			if next.off != n.end || !(next.kind == tkIdent || wild && isOp(next, "*")) {
				break
			}
			p.advance()
			b.WriteString(".")
			n = p.advance()
		} else if wild && (n.kind == tkIdent && !n.quoted || isOp(n, "*")) {
			p.advance()
		} else {
			break
		}
		b.WriteString(n.text)
		end = n.end
	}
	return Name{At: t.pos, Name: b.String()}, nil
}

func (p *parser) names(what string) ([]Name, error) {
	var out []Name
	for {
		n, err := p.wildName(what)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		if !p.acceptOp(",") {
			return out, nil
		}
	}
}

// tableName reads an index name: identifiers joined by '.', '-' or '*'
// written without spaces (logs-2026.11, my_index).
func (p *parser) tableName() (string, sql.Pos, error) {
	t := p.tok()
	if t.kind != tkIdent {
		return "", t.pos, p.errExpected("a table name")
	}
	p.advance()
	var b strings.Builder
	b.WriteString(t.text)
	end := t.end
	for {
		n := p.tok()
		if n.off != end || !(isOp(n, ".") || isOp(n, "-") || isOp(n, "*") || n.kind == tkIdent || n.kind == tkNumber || n.kind == tkDuration) {
			return b.String(), t.pos, nil
		}
		p.advance()
		b.WriteString(n.text)
		end = n.end
	}
}

func (p *parser) integer(what string) (int64, error) {
	t := p.tok()
	if t.kind != tkNumber {
		return 0, p.errExpected(what)
	}
	n, err := strconv.ParseInt(t.text, 10, 64)
	if err != nil {
		return 0, syntaxErr(t.pos, "%s: %q is not a whole number", what, t.text)
	}
	p.advance()
	return n, nil
}

// option reads key=value where key is one of keys; ok is false when the
// next tokens are not such an option.
func (p *parser) option(keys ...string) (key string, val token, ok bool) {
	t := p.tok()
	if t.kind != tkIdent || t.quoted || !isOp(p.peek(1), "=") {
		return "", token{}, false
	}
	for _, k := range keys {
		if strings.EqualFold(t.text, k) {
			p.advance()
			p.advance()
			return k, p.advance(), true
		}
	}
	return "", token{}, false
}

func boolValue(t token) (bool, error) {
	switch {
	case isKw(t, "true"):
		return true, nil
	case isKw(t, "false"):
		return false, nil
	}
	return false, syntaxErr(t.pos, "expected true or false but found %s", describe(t))
}

// pipeline reads [search] source=t ... | command | ...; sub is set inside
// a join's [ ... ] subsearch.
func (p *parser) pipeline(sub bool) (*Pipeline, error) {
	pl := &Pipeline{At: p.tok().pos}
	if p.atOp("|") && (isKw(p.peek(1), "union") || isKw(p.peek(1), "multisearch")) {
		// | union ... / | multisearch ...: the datasets are the source.
		p.advance()
		t := p.advance()
		u, err := p.union(t.pos, isKw(t, "multisearch"))
		if err != nil {
			return nil, err
		}
		if len(u.Sets) < 2 {
			return nil, syntaxErr(t.pos, "%s needs at least two datasets", strings.ToLower(t.text))
		}
		pl.Commands = append(pl.Commands, u)
	} else {
		src, err := p.searchSource()
		if err != nil {
			return nil, err
		}
		pl.Source = src
	}
	for p.acceptOp("|") {
		if len(pl.Commands) == maxCommands {
			return nil, syntaxErr(p.tok().pos, "more than %d commands in one pipeline", maxCommands)
		}
		c, err := p.command()
		if err != nil {
			return nil, err
		}
		pl.Commands = append(pl.Commands, c)
	}
	if sub && !p.atOp("]") {
		return nil, p.errExpected("'|' or ']'")
	}
	return pl, nil
}

func (p *parser) command() (Command, error) {
	t := p.tok()
	if t.kind != tkIdent || t.quoted {
		return nil, p.errExpected("a command")
	}
	name := strings.ToLower(t.text)
	switch name {
	case "inner", "left", "right", "full", "outer", "cross", "semi", "anti":
		return p.join()
	}
	p.advance()
	switch name {
	case "where":
		e, err := p.expr()
		return &Where{At: t.pos, Cond: e}, err
	case "search":
		return nil, syntaxErr(t.pos, "search may only start a query (search source=t ...)")
	case "fields", "table":
		return p.fields(t.pos)
	case "eval":
		return p.eval(t.pos)
	case "stats":
		return p.stats(t.pos)
	case "eventstats":
		st, err := p.stats(t.pos)
		if err != nil {
			return nil, err
		}
		return &EventStats{Stats: *st}, nil
	case "sort":
		return p.sort(t.pos)
	case "trendline":
		return p.trendline(t.pos)
	case "head":
		return p.head(t.pos)
	case "dedup":
		return p.dedup(t.pos)
	case "rename":
		return p.rename(t.pos)
	case "top", "rare":
		return p.top(t.pos, name == "rare")
	case "parse", "grok":
		return p.parse(t.pos, name == "grok")
	case "patterns":
		return p.patterns(t.pos)
	case "fillnull":
		return p.fillNull(t.pos)
	case "lookup":
		return p.lookup(t.pos)
	case "join":
		p.i--
		return p.join()
	case "reverse":
		return &Reverse{At: t.pos}, nil
	case "timechart":
		return p.timechart(t.pos)
	case "chart":
		return p.chart(t.pos)
	case "union":
		return p.union(t.pos, false)
	case "xyseries":
		return p.xyseries(t.pos)
	case "timewrap":
		return p.timewrap(t.pos)
	case "foreach":
		return p.foreach(t.pos)
	case "multisearch":
		return nil, syntaxErr(t.pos, "multisearch may only start a query (| multisearch [ ... ] [ ... ])")
	case "streamstats":
		return p.streamStats(t.pos)
	case "bin":
		return p.bin(t.pos)
	case "append":
		return p.appendCmd(t.pos)
	case "appendcol":
		return p.appendCol(t.pos)
	case "appendpipe":
		cmds, err := p.subCommands()
		return &AppendPipe{At: t.pos, Commands: cmds}, err
	case "regex":
		return p.regex(t.pos)
	case "rex":
		return p.rex(t.pos)
	case "mvcombine", "nomv":
		f, err := p.name("a field name")
		return &MvCombine{At: t.pos, Field: f, NoMv: name == "nomv"}, err
	case "addtotals", "addcoltotals":
		return p.addTotals(t.pos, name == "addcoltotals")
	case "mvexpand":
		return p.mvexpand(t.pos)
	case "expand":
		return p.expand(t.pos)
	case "flatten":
		return p.flatten(t.pos)
	case "replace":
		return p.replace(t.pos)
	case "fieldformat":
		return p.fieldFormat(t.pos)
	case "transpose":
		return p.transpose(t.pos)
	case "convert":
		return p.convert(t.pos)
	case "spath":
		return p.spath(t.pos)
	}
	return nil, syntaxErr(t.pos, "unknown command %q (want where, fields, eval, stats, eventstats, sort, trendline, head, dedup, rename, top, rare, parse, grok, patterns, fillnull, lookup, join, reverse, timechart, chart, timewrap, union, xyseries, foreach, streamstats, bin, append, appendcol, appendpipe, expand, mvexpand, mvcombine, nomv, flatten, regex, rex, replace, fieldformat, transpose, convert, spath, addtotals or addcoltotals)", t.text)
}

func (p *parser) fields(at sql.Pos) (*Fields, error) {
	f := &Fields{At: at}
	if p.acceptOp("-") {
		f.Exclude = true
	} else {
		p.acceptOp("+")
	}
	var err error
	f.Names, err = p.names("a field name")
	// OpenSearch also takes names apart by blanks alone (fields a b).
	for err == nil && p.tok().kind == tkIdent {
		var more []Name
		more, err = p.names("a field name")
		f.Names = append(f.Names, more...)
	}
	return f, err
}

func (p *parser) eval(at sql.Pos) (*Eval, error) {
	ev := &Eval{At: at}
	for {
		n, err := p.name("a field name")
		if err != nil {
			return nil, err
		}
		if err := p.expectOp("="); err != nil {
			return nil, err
		}
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		ev.Assigns = append(ev.Assigns, Assign{At: n.At, Name: n.Name, Expr: e})
		if !p.acceptOp(",") {
			return ev, nil
		}
	}
}

// text is the source text of tokens [from, p.i), for default names.
func (p *parser) text(from int) string {
	if p.i <= from {
		return ""
	}
	return p.src[p.toks[from].off:p.toks[p.i-1].end]
}

func (p *parser) alias() (string, error) {
	if !p.acceptKw("as") {
		return "", nil
	}
	n, err := p.name("a name")
	return n.Name, err
}

// statsAgg reads one aggregate of stats: an expression, or a bare count
// or c, which PPL reads as count().
func (p *parser) statsAgg() (sql.Expr, error) {
	if (p.atKw("count") || p.atKw("c")) && !isOp(p.peek(1), "(") {
		t := p.advance()
		return &sql.Call{At: t.pos, Name: "count", Star: true}, nil
	}
	return p.expr()
}

func (p *parser) stats(at sql.Pos) (*Stats, error) {
	st := &Stats{At: at}
	for {
		_, v, ok := p.option("bucket_nullable")
		if !ok {
			break
		}
		b, err := boolValue(v)
		if err != nil {
			return nil, err
		}
		st.NoNullKeys = !b
	}
	for {
		from := p.i
		e, err := p.statsAgg()
		if err != nil {
			return nil, err
		}
		a := Agg{At: e.Pos(), Call: e, Name: p.text(from)}
		if n, err := p.alias(); err != nil {
			return nil, err
		} else if n != "" {
			a.Name = n
		}
		st.Aggs = append(st.Aggs, a)
		if !p.acceptOp(",") {
			break
		}
	}
	if !p.acceptKw("by") {
		return st, nil
	}
	for {
		from := p.i
		g := Group{At: p.tok().pos}
		if p.atKw("span") && isOp(p.peek(1), "(") {
			sp, err := p.span()
			if err != nil {
				return nil, err
			}
			g.Span = sp
		} else {
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			g.Expr = e
		}
		g.Name = p.text(from)
		if p.i == from+1 && p.toks[from].quoted {
			// by `a.b` names its column a.b, without the back-quotes.
			g.Name = p.toks[from].text
		}
		if n, err := p.alias(); err != nil {
			return nil, err
		} else if n != "" {
			g.Name = n
		}
		st.By = append(st.By, g)
		if !p.acceptOp(",") {
			return st, nil
		}
	}
}

// span reads span(field, size): size is a number (numeric buckets) or a
// duration such as 1h, 30m, 1d, 1M (month), 1q, 1y.
func (p *parser) span() (*Span, error) {
	at := p.advance().pos
	p.advance()
	f, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.expectOp(","); err != nil {
		return nil, err
	}
	t := p.tok()
	sp := &Span{At: at, Field: f}
	switch t.kind {
	case tkNumber:
		sp.Size = t.text
		p.advance()
		if u := p.tok(); u.kind == tkIdent && !u.quoted && !isOp(p.tok(), ")") {
			sp.Unit = u.text
			p.advance()
		}
	case tkDuration:
		i := 0
		for i < len(t.text) && (isDigit(t.text[i]) || t.text[i] == '.') {
			i++
		}
		sp.Size, sp.Unit = t.text[:i], t.text[i:]
		p.advance()
	default:
		return nil, p.errExpected("a span size such as 10 or 1h")
	}
	return sp, p.expectOp(")")
}

// maxWMAPoints bounds wma(n, f), which sums n lag() calls.
const maxWMAPoints = 100

func (p *parser) trendline(at sql.Pos) (*Trendline, error) {
	tl := &Trendline{At: at}
	if p.atKw("sort") {
		st, err := p.sort(p.advance().pos)
		if err != nil {
			return nil, err
		}
		tl.Sort = st.Keys
	}
	for !p.atEnd() {
		t := p.tok()
		if !(isKw(t, "sma") || isKw(t, "wma")) || !isOp(p.peek(1), "(") {
			return nil, p.errExpected("sma(n, field) or wma(n, field)")
		}
		wma := isKw(t, "wma")
		p.advance()
		p.advance()
		nt := p.tok()
		n, err := p.integer("a number of data points")
		if err != nil {
			return nil, err
		}
		if n < 1 {
			return nil, syntaxErr(nt.pos, "trendline needs at least 1 data point")
		}
		if wma && n > maxWMAPoints {
			return nil, syntaxErr(nt.pos, "trendline wma takes at most %d data points", maxWMAPoints)
		}
		if err := p.expectOp(","); err != nil {
			return nil, err
		}
		fn, err := p.name("a field name")
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
		tr := Trend{At: t.pos, N: n, Field: &sql.ColumnRef{At: fn.At, Parts: strings.Split(fn.Name, ".")}, Name: fn.Name + "_trendline", WMA: wma}
		if a, err := p.alias(); err != nil {
			return nil, err
		} else if a != "" {
			tr.Name = a
		}
		tl.Trends = append(tl.Trends, tr)
		p.acceptOp(",")
	}
	if len(tl.Trends) == 0 {
		return nil, p.errExpected("sma(n, field) or wma(n, field)")
	}
	return tl, nil
}

func (p *parser) head(at sql.Pos) (*Head, error) {
	h := &Head{At: at, N: 10}
	if _, v, ok := p.option("limit"); ok {
		p.i--
		n, err := p.integer("a row count")
		if err != nil {
			return nil, err
		}
		_ = v
		h.N, h.HasCount = n, true
	} else if p.tok().kind == tkNumber {
		n, err := p.integer("a row count")
		if err != nil {
			return nil, err
		}
		h.N, h.HasCount = n, true
	}
	if p.acceptKw("from") {
		n, err := p.integer("an offset")
		if err != nil {
			return nil, err
		}
		h.From = n
	}
	return h, nil
}

func (p *parser) dedup(at sql.Pos) (*Dedup, error) {
	d := &Dedup{At: at, N: 1}
	if p.tok().kind == tkNumber {
		t := p.tok()
		n, err := p.integer("a count")
		if err != nil {
			return nil, err
		}
		if n < 1 {
			return nil, syntaxErr(t.pos, "dedup count must be greater than 0")
		}
		d.N = n
	}
	for !p.atEnd() {
		if k, v, ok := p.option("keepempty", "consecutive"); ok {
			b, err := boolValue(v)
			if err != nil {
				return nil, err
			}
			if k == "keepempty" {
				d.KeepEmpty = b
			} else {
				d.Consecutive = b
			}
			continue
		}
		if len(d.Fields) > 0 && !p.acceptOp(",") && p.tok().kind != tkIdent {
			return nil, p.errExpected("',' or a field name")
		}
		n, err := p.name("a field name")
		if err != nil {
			return nil, err
		}
		d.Fields = append(d.Fields, n)
	}
	if len(d.Fields) == 0 {
		return nil, p.errExpected("a field name")
	}
	return d, nil
}

func (p *parser) rename(at sql.Pos) (*Rename, error) {
	r := &Rename{At: at}
	for {
		from, err := p.wildName("a field name")
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("as"); err != nil {
			return nil, err
		}
		to, err := p.wildName("a new name")
		if err != nil {
			return nil, err
		}
		r.From, r.To = append(r.From, from), append(r.To, to)
		if !p.acceptOp(",") {
			return r, nil
		}
	}
}

func (p *parser) top(at sql.Pos, rare bool) (*Top, error) {
	t := &Top{At: at, Rare: rare, N: 10, ShowCount: true, CountField: "count"}
	for {
		if p.tok().kind == tkNumber {
			n, err := p.integer("a count")
			if err != nil {
				return nil, err
			}
			t.N = n
			continue
		}
		k, v, ok := p.option("limit", "showcount", "countfield", "usenull")
		if !ok {
			break
		}
		switch k {
		case "limit":
			n, err := strconv.ParseInt(v.text, 10, 64)
			if err != nil || v.kind != tkNumber {
				return nil, syntaxErr(v.pos, "limit: want a whole number")
			}
			t.N = n
		case "showcount":
			b, err := boolValue(v)
			if err != nil {
				return nil, err
			}
			t.ShowCount = b
		case "countfield":
			if v.kind != tkString && v.kind != tkIdent {
				return nil, syntaxErr(v.pos, "countfield: want a name")
			}
			t.CountField = v.text
		case "usenull":
			b, err := boolValue(v)
			if err != nil {
				return nil, err
			}
			t.NoNull = !b
		}
	}
	var err error
	if t.Fields, err = p.names("a field name"); err != nil {
		return nil, err
	}
	if p.acceptKw("by") {
		if t.By, err = p.names("a field name"); err != nil {
			return nil, err
		}
	}
	return t, nil
}
