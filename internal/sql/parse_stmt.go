package sql

import (
	"strings"
)

// statement parses one statement and records its source text.
func (p *parser) statement() (Statement, error) {
	start := p.tok()
	s, err := p.statementBody()
	if err != nil {
		return nil, err
	}
	base := baseOf(s)
	base.At = start.pos
	base.Src = p.src[start.off:p.prevEnd()]
	return s, nil
}

// baseOf returns the StmtBase every statement type embeds.
func baseOf(s Statement) *StmtBase {
	return s.(interface{ base() *StmtBase }).base()
}

func (b *StmtBase) base() *StmtBase { return b }

func (p *parser) statementBody() (Statement, error) {
	t := p.tok()
	if isOp(t, "(") || p.queryAt(0) || p.startsPPL() {
		q, err := p.query()
		if err != nil {
			return nil, err
		}
		return &SelectStmt{Query: q}, nil
	}
	if t.kind != tkIdent || t.quoted {
		return nil, p.errExpected("a statement")
	}
	if ok, err := p.refused(); ok {
		return nil, err
	}
	if s, ok, err := p.flintIndexStatement(); ok {
		return s, err
	}
	if s, ok, err := p.tableCommand(); ok {
		return s, err
	}
	switch strings.ToUpper(t.text) {
	case "CREATE":
		p.advance()
		if s, ok, err := p.createView(); ok {
			return s, err
		}
		if p.atKw("EXTERNAL") && isKw(p.peek(1), "TABLE") {
			p.advance()
			p.advance()
			st, err := p.createTable()
			if c, ok := st.(*CreateTable); ok {
				c.External = true
			}
			return st, err
		}
		if p.acceptKw("TABLE") {
			return p.createTable()
		}
		if isDatabaseKw(p.tok()) {
			p.advance()
			return p.createDatabase()
		}
		if p.atKw("MATERIALIZED") {
			p.advance()
			if err := p.expectKw("VIEW"); err != nil {
				return nil, err
			}
			return p.createMV()
		}
		return nil, p.errExpected("TABLE, EXTERNAL TABLE, DATABASE, VIEW or MATERIALIZED VIEW")
	case "DROP":
		p.advance()
		if p.acceptKw("TABLE") {
			ie, err := p.ifExists()
			if err != nil {
				return nil, err
			}
			name, _, err := p.qualifiedName("table name")
			return &DropTable{IfExists: ie, Name: name}, err
		}
		if isDatabaseKw(p.tok()) {
			p.advance()
			return p.dropDatabase()
		}
		if p.atKw("VIEW") {
			return p.dropView()
		}
		if !p.atKw("MATERIALIZED") {
			return nil, p.errExpected("TABLE, DATABASE, VIEW or MATERIALIZED VIEW")
		}
		if err := p.materializedView(); err != nil {
			return nil, err
		}
		ie, err := p.ifExists()
		if err != nil {
			return nil, err
		}
		name, _, err := p.qualifiedName("view name")
		return &DropMaterializedView{IfExists: ie, Name: name}, err
	case "SHOW":
		return p.show()
	case "USE":
		return p.use()
	case "VACUUM":
		p.advance()
		if err := p.materializedView(); err != nil {
			return nil, err
		}
		name, _, err := p.qualifiedName("view name")
		return &VacuumMaterializedView{Name: name}, err
	case "DESCRIBE", "DESC":
		return p.describe()
	case "INSERT":
		return p.insert()
	case "REFRESH":
		p.advance()
		if !p.atKw("MATERIALIZED") {
			// Spark's REFRESH [TABLE] name.
			if p.atKw("TABLE") && isIdentTok(p.peek(1)) {
				p.advance()
			}
			name, _, err := p.qualifiedName("table name")
			return &TableCommand{Command: RefreshTable, Name: name}, err
		}
		if err := p.materializedView(); err != nil {
			return nil, err
		}
		name, _, err := p.qualifiedName("view name")
		return &RefreshMaterializedView{Name: name}, err
	case "ALTER":
		p.advance()
		if p.acceptKw("TABLE") {
			return p.alterTable()
		}
		if p.acceptKw("VIEW") {
			return p.alterView()
		}
		if err := p.materializedView(); err != nil {
			return nil, err
		}
		name, _, err := p.qualifiedName("view name")
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("WITH"); err != nil {
			return nil, err
		}
		opts, err := p.options()
		return &AlterMaterializedView{Name: name, With: opts}, err
	case "STOP", "START":
		p.advance()
		if err := p.expectKw("STREAM"); err != nil {
			return nil, err
		}
		name, _, err := p.ident("stream name")
		if strings.EqualFold(t.text, "STOP") {
			return &StopStream{Name: name}, err
		}
		return &StartStream{Name: name}, err
	case "EXPLAIN":
		p.advance()
		e := &Explain{}
		if p.acceptKw("ANALYZE") {
			e.Mode = ExplainAnalyze
		} else if p.acceptKw("VERBOSE") {
			e.Mode = ExplainVerbose
		}
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		inner, err := p.statement()
		e.Stmt = inner
		return e, err
	case "SET":
		p.advance()
		key, err := p.optionKey("setting name")
		if err != nil {
			return nil, err
		}
		if p.tok().kind == tkEOF || p.atOp(";") {
			return &Set{Key: key}, nil // Spark's SET key: show its value
		}
		p.acceptOp("=")
		v, err := p.optionValue()
		return &Set{Key: key, Value: v}, err
	case "RESET":
		p.advance()
		if p.tok().kind == tkEOF || p.atOp(";") {
			return &Reset{}, nil
		}
		key, err := p.optionKey("setting name")
		return &Reset{Key: key}, err
	}
	return nil, p.errExpected("a statement")
}

// materializedView consumes MATERIALIZED VIEW.
func (p *parser) materializedView() error {
	if err := p.expectKw("MATERIALIZED"); err != nil {
		return err
	}
	return p.expectKw("VIEW")
}

func (p *parser) ifExists() (bool, error) {
	if !p.atKw("IF") {
		return false, nil
	}
	p.advance()
	return true, p.expectKw("EXISTS")
}

func (p *parser) ifNotExists() (bool, error) {
	if !p.atKw("IF") {
		return false, nil
	}
	p.advance()
	if err := p.expectKw("NOT"); err != nil {
		return false, err
	}
	return true, p.expectKw("EXISTS")
}

func (p *parser) show() (Statement, error) {
	p.advance()
	if s, ok, err := p.showSpark(); ok {
		return s, err
	}
	switch {
	case p.acceptKw("TABLES"):
		in, err := p.showIn()
		if err != nil {
			return nil, err
		}
		like, err := p.showLike()
		return &ShowTables{In: in, Like: like}, err
	case p.acceptKw("DATABASES") || p.acceptKw("SCHEMAS") || p.acceptKw("NAMESPACES"):
		s := &ShowDatabases{}
		if p.acceptKw("LIKE") {
			var err error
			if s.Like, err = p.stringLit("pattern string"); err != nil {
				return nil, err
			}
		}
		return s, nil
	case p.acceptKw("TBLPROPERTIES"):
		name, _, err := p.qualifiedName("table name")
		if err != nil {
			return nil, err
		}
		s := &ShowTblProperties{Name: name}
		if p.acceptOp("(") {
			if s.Key, err = p.optionKey("property name"); err != nil {
				return nil, err
			}
			return s, p.expectOp(")")
		}
		return s, nil
	case p.acceptKw("STREAMS"):
		return &ShowStreams{}, nil
	case p.acceptKw("SETTINGS"):
		return &ShowSettings{}, nil
	case p.atKw("MATERIALIZED"):
		p.advance()
		// Flint spells it SHOW MATERIALIZED [VIEW|VIEWS] IN catalog[.db].
		if !p.acceptKw("VIEW") {
			if err := p.expectKw("VIEWS"); err != nil {
				return nil, err
			}
		}
		in, err := p.showIn()
		return &ShowMaterializedViews{In: in}, err
	case p.atKw("CREATE"):
		p.advance()
		if err := p.expectKw("TABLE"); err != nil {
			return nil, err
		}
		name, _, err := p.qualifiedName("table name")
		return &ShowCreateTable{Name: name}, err
	}
	return nil, p.errExpected("TABLES, DATABASES, TBLPROPERTIES, COLUMNS, PARTITIONS, FUNCTIONS, VIEWS, STREAMS, SETTINGS, MATERIALIZED VIEWS or CREATE TABLE")
}

// insertTarget reads name [(cols)]. A '(' that opens a query is left for
// the query.
func (p *parser) insertTarget() (string, []string, error) {
	name, _, err := p.qualifiedName("table name")
	if err != nil {
		return "", nil, err
	}
	if !p.atOp("(") {
		return name, nil, nil
	}
	if p.queryAt(parenRun(p)) {
		return name, nil, nil
	}
	cols, err := p.identList("column name")
	return name, cols, err
}

// insertQuery reads the rest of INSERT INTO|OVERWRITE: name [PARTITION
// (k [= v], ...)] [(cols) | BY NAME] query.
func (p *parser) insertQuery(overwrite bool) (Statement, error) {
	name, _, err := p.qualifiedName("table name")
	if err != nil {
		return nil, err
	}
	s := &Insert{Overwrite: overwrite, Table: name}
	if p.atKw("PARTITION") && isOp(p.peek(1), "(") {
		p.advance()
		if s.Partition, err = p.partitionValues(); err != nil {
			return nil, err
		}
	}
	if p.atKw("BY") && isKw(p.peek(1), "NAME") {
		p.advance()
		p.advance()
		s.ByName = true
	} else if p.atOp("(") && !p.queryAt(parenRun(p)) {
		if s.Columns, err = p.identList("column name"); err != nil {
			return nil, err
		}
	}
	s.Query, err = p.query()
	return s, err
}

// partitionValues reads (k [= v], ...) of INSERT's PARTITION clause.
func (p *parser) partitionValues() ([]*PartitionValue, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	var out []*PartitionValue
	for {
		col, _, err := p.ident("partition column")
		if err != nil {
			return nil, err
		}
		pv := &PartitionValue{Column: col}
		if p.acceptOp("=") {
			if pv.Value, err = p.expr(); err != nil {
				return nil, err
			}
		}
		out = append(out, pv)
		if !p.acceptOp(",") {
			break
		}
	}
	return out, p.expectOp(")")
}

func (p *parser) insert() (Statement, error) {
	p.advance()
	switch {
	case p.acceptKw("STREAM"):
		if err := p.expectKw("INTO"); err != nil {
			return nil, err
		}
		name, cols, err := p.insertTarget()
		if err != nil {
			return nil, err
		}
		s := &InsertStream{Table: name, Columns: cols}
		if s.Query, err = p.query(); err != nil {
			return nil, err
		}
		if p.acceptKw("WITH") {
			if s.With, err = p.options(); err != nil {
				return nil, err
			}
		}
		return s, nil
	case p.acceptKw("OVERWRITE"):
		if isKw(p.tok(), "TABLE") && isIdentTok(p.peek(1)) {
			p.advance()
		}
		return p.insertQuery(true)
	case p.acceptKw("INTO"):
		if isKw(p.tok(), "TABLE") && isIdentTok(p.peek(1)) {
			p.advance()
		}
		return p.insertQuery(false)
	}
	return nil, p.errExpected("INTO, OVERWRITE or STREAM")
}

func (p *parser) createMV() (Statement, error) {
	ine, err := p.ifNotExists()
	if err != nil {
		return nil, err
	}
	name, _, err := p.qualifiedName("view name")
	if err != nil {
		return nil, err
	}
	if err := p.expectKw("AS"); err != nil {
		return nil, err
	}
	s := &CreateMaterializedView{IfNotExists: ine, Name: name}
	if s.Query, err = p.query(); err != nil {
		return nil, err
	}
	if p.acceptKw("WITH") {
		if s.With, err = p.options(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

var tableClauses = map[string]bool{"USING": true, "LOCATION": true, "PARTITIONED": true, "OPTIONS": true, "COMMENT": true,
	"TBLPROPERTIES": true}

func (p *parser) createTable() (Statement, error) {
	ine, err := p.ifNotExists()
	if err != nil {
		return nil, err
	}
	name, _, err := p.qualifiedName("table name")
	if err != nil {
		return nil, err
	}
	if p.atKw("LIKE") {
		return p.createTableLike(ine, name)
	}
	c := &CreateTable{IfNotExists: ine, Name: name}
	if p.atOp("(") {
		if err := p.columnDefs(c); err != nil {
			return nil, err
		}
	}
	// The clauses may come in any order, each at most once, as in Spark.
	seen := map[string]bool{}
	for {
		t := p.tok()
		kw := strings.ToUpper(t.text)
		if t.kind == tkIdent && !t.quoted && (kw == "STORED" && isKw(p.peek(1), "AS") || kw == "ROW" && isKw(p.peek(1), "FORMAT")) {
			// Hive's table formats; Spark without Hive refuses them too.
			return nil, errAt(t.pos, "%s %s is Hive's table format: write USING json, csv or parquet (with OPTIONS (sep ',') and the like for CSV)", kw, strings.ToUpper(p.peek(1).text))
		}
		if t.kind != tkIdent || t.quoted || !tableClauses[kw] {
			break
		}
		if seen[kw] {
			return nil, errAt(t.pos, "duplicate %s clause", kw)
		}
		seen[kw] = true
		p.advance()
		switch kw {
		case "USING":
			if c.Using, _, err = p.ident("format name"); err != nil {
				return nil, err
			}
		case "LOCATION":
			if c.Location, err = p.stringLit("location string"); err != nil {
				return nil, err
			}
		case "PARTITIONED":
			if err := p.expectKw("BY"); err != nil {
				return nil, err
			}
			if c.PartitionedBy, err = p.identList("column name"); err != nil {
				return nil, err
			}
		case "OPTIONS":
			if c.Options, err = p.options(); err != nil {
				return nil, err
			}
		case "COMMENT":
			if c.Comment, err = p.stringLit("comment string"); err != nil {
				return nil, err
			}
		case "TBLPROPERTIES":
			if c.TblProperties, err = p.options(); err != nil {
				return nil, err
			}
		}
	}
	if p.acceptKw("AS") {
		if c.As, err = p.query(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (p *parser) stringLit(what string) (string, error) {
	t := p.tok()
	if t.kind != tkString {
		return "", p.errExpected(what)
	}
	p.advance()
	return t.text, nil
}

// columnDefs parses (name type [NOT NULL] [COMMENT 's'], ...
// [, WATERMARK FOR col AS expr]).
func (p *parser) columnDefs(c *CreateTable) error {
	p.advance()
	c.Columns = []*ColumnDef{}
	for {
		if p.atKw("WATERMARK") && isKw(p.peek(1), "FOR") {
			at := p.advance().pos
			if c.Watermark != nil {
				return errAt(at, "only one WATERMARK is allowed")
			}
			p.advance()
			col, _, err := p.ident("column name")
			if err != nil {
				return err
			}
			if err := p.expectKw("AS"); err != nil {
				return err
			}
			e, err := p.expr()
			if err != nil {
				return err
			}
			c.Watermark = &Watermark{At: at, Column: col, Expr: e}
		} else {
			name, at, err := p.ident("column name")
			if err != nil {
				return err
			}
			typ, err := p.dataType()
			if err != nil {
				return err
			}
			d := &ColumnDef{At: at, Name: name, Type: typ}
			if p.atKw("NOT") {
				p.advance()
				if err := p.expectKw("NULL"); err != nil {
					return err
				}
				d.NotNull = true
			}
			if p.acceptKw("COMMENT") {
				if d.Comment, err = p.stringLit("comment string"); err != nil {
					return err
				}
			}
			c.Columns = append(c.Columns, d)
		}
		if !p.acceptOp(",") {
			break
		}
	}
	if err := p.expectOp(")"); err != nil {
		if p.tok().kind != tkError {
			return p.errExpected("',' or ')'")
		}
		return err
	}
	return nil
}

// options parses (key [=] value, ...).
func (p *parser) options() (Options, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	opts := Options{}
	if p.acceptOp(")") {
		return opts, nil
	}
	for {
		at := p.tok().pos
		key, err := p.optionKey("option name")
		if err != nil {
			return nil, err
		}
		p.acceptOp("=")
		v, err := p.optionValue()
		if err != nil {
			return nil, err
		}
		opts = append(opts, &Option{At: at, Key: key, Value: v})
		if !p.acceptOp(",") {
			break
		}
	}
	if err := p.expectOp(")"); err != nil {
		if p.tok().kind != tkError {
			return nil, p.errExpected("',' or ')'")
		}
		return nil, err
	}
	return opts, nil
}

// optionKey reads a key: a word, a dotted name (s3.endpoint), a quoted
// identifier or a string.
func (p *parser) optionKey(what string) (string, error) {
	t := p.tok()
	if t.kind == tkString {
		p.advance()
		if t.text == "" {
			return "", errAt(t.pos, "empty %s", what)
		}
		return t.text, nil
	}
	if t.kind != tkIdent {
		return "", p.errExpected(what)
	}
	p.advance()
	key := t.text
	for p.atOp(".") && p.peek(1).kind == tkIdent {
		p.advance()
		key += "." + p.advance().text
	}
	return key, nil
}

// optionValue reads a string, number, boolean, identifier or interval.
func (p *parser) optionValue() (*Literal, error) {
	t := p.tok()
	switch {
	case t.kind == tkString:
		p.advance()
		return &Literal{At: t.pos, Kind: LitString, Value: t.text}, nil
	case t.kind == tkNumber:
		p.advance()
		return &Literal{At: t.pos, Kind: t.num, Value: t.text}, nil
	case isOp(t, "-") && p.peek(1).kind == tkNumber:
		p.advance()
		n := p.advance()
		return &Literal{At: t.pos, Kind: n.num, Value: "-" + n.text}, nil
	case isKw(t, "TRUE") || isKw(t, "FALSE"):
		p.advance()
		return &Literal{At: t.pos, Kind: LitBool, Value: strings.ToUpper(t.text)}, nil
	case isKw(t, "INTERVAL") && (p.peek(1).kind == tkString || p.peek(1).kind == tkNumber):
		e, err := p.intervalLiteral()
		if err != nil {
			return nil, err
		}
		return e.(*Literal), nil
	case isIdentTok(t):
		p.advance()
		return &Literal{At: t.pos, Kind: LitIdent, Value: t.text}, nil
	}
	return nil, p.errExpected("option value (a string, number, boolean or name)")
}
