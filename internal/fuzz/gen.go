package fuzz

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Type is a column's SQL type as the generator knows it.
type Type string

// The column types the generator draws from.
const (
	BigInt    Type = "BIGINT"
	Int       Type = "INT"
	Double    Type = "DOUBLE"
	String    Type = "STRING"
	Boolean   Type = "BOOLEAN"
	Date      Type = "DATE"
	Timestamp Type = "TIMESTAMP"
)

var allTypes = []Type{BigInt, Int, Double, String, Boolean, Date, Timestamp}

// numeric reports whether values of t compare and add as numbers.
func (t Type) numeric() bool { return t == BigInt || t == Int || t == Double }

// Column is one generated column.
type Column struct {
	Name string
	Type Type
}

// Table is a generated table: its schema, format, optional partition
// column and rows as SQL literals, one INSERT per batch.
type Table struct {
	Name     string
	Format   string // json, csv or parquet
	Location string
	Cols     []Column
	// Part is the index in Cols of the PARTITIONED BY column, -1 for none.
	Part int
	// Watermark is a WATERMARK FOR clause's text after FOR ("ev AS ev -
	// INTERVAL 30 MINUTES"), "" for none.
	Watermark string
	// Batches are the rows of each INSERT, each value an SQL literal.
	Batches [][][]string
	// Twins are the same rows written in the other formats (Run
	// creates them; see formats.go).
	Twins []*Table
	// Index is the twin with a skipping index (Run draws it; see
	// skipping.go).
	Index *indexTwin
}

// newRand is the generator's random source for a seed: PCG, so runs
// replay exactly.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// genTable draws a table named name located under dir.
func genTable(r *rand.Rand, name, dir string) *Table {
	t := &Table{Name: name, Location: dir + "/" + name + "/", Part: -1}
	t.Format = []string{"json", "csv", "parquet"}[r.IntN(3)]
	n := 2 + r.IntN(5)
	for i := 0; i < n; i++ {
		t.Cols = append(t.Cols, Column{Name: fmt.Sprintf("c%d", i), Type: allTypes[r.IntN(len(allTypes))]})
	}
	if r.IntN(3) == 0 {
		var cands []int
		for i, c := range t.Cols {
			if c.Type == String || c.Type == Int {
				cands = append(cands, i)
			}
		}
		// Spark needs a data column besides the partition column.
		if len(cands) > 0 && len(t.Cols) > 1 {
			t.Part = cands[r.IntN(len(cands))]
		}
	}
	batches := 1 + r.IntN(4)
	for b := 0; b < batches; b++ {
		t.addBatch(r)
	}
	return t
}

// addBatch draws one more INSERT's rows (1 to 12).
func (t *Table) addBatch(r *rand.Rand) {
	var rows [][]string
	for i, m := 0, 1+r.IntN(12); i < m; i++ {
		row := make([]string, len(t.Cols))
		for j, c := range t.Cols {
			row[j] = genValue(r, c.Type, j == t.Part)
		}
		rows = append(rows, row)
	}
	t.Batches = append(t.Batches, rows)
}

// twin is t's rows in another format, under name (for the formats oracle).
func (t *Table) twin(format, name, dir string) *Table {
	c := *t
	c.Name, c.Format, c.Location = name, format, dir+"/"+name+"/"
	return &c
}

// lossyCSV reports whether t is a CSV table with one data column (the
// partition column aside): a NULL there is written as an empty line,
// which the reader skips, as Spark's does, so the row is lost.
func (t *Table) lossyCSV() bool {
	n := len(t.Cols)
	if t.Part >= 0 {
		n--
	}
	return t.Format == "csv" && n == 1
}

// Statements are the CREATE TABLE and INSERT statements that write t.
func (t *Table) Statements() []string {
	var cols []string
	for _, c := range t.Cols {
		cols = append(cols, c.Name+" "+string(c.Type))
	}
	if t.Watermark != "" {
		cols = append(cols, "WATERMARK FOR "+t.Watermark)
	}
	create := fmt.Sprintf("CREATE TABLE %s (%s) USING %s LOCATION '%s'", t.Name, strings.Join(cols, ", "), t.Format, t.Location)
	if t.Format == "csv" {
		// multiLine: strings hold newlines, which the writer quotes; read
		// one record per line (Spark's default) they split the record.
		create += " OPTIONS (header 'true', multiLine 'true')"
	}
	if t.Part >= 0 {
		create += " PARTITIONED BY (" + t.Cols[t.Part].Name + ")"
	}
	out := []string{create}
	for _, rows := range t.Batches {
		var vals []string
		for _, row := range rows {
			vals = append(vals, "("+strings.Join(row, ", ")+")")
		}
		out = append(out, "INSERT INTO "+t.Name+" VALUES "+strings.Join(vals, ", "))
	}
	return out
}

// Rows is how many rows t holds.
func (t *Table) Rows() int {
	n := 0
	for _, b := range t.Batches {
		n += len(b)
	}
	return n
}

// The pools values are drawn from: small, so predicates hit and groups
// repeat, and with the edge cases files and comparisons get wrong.
var (
	intPool    = []string{"0", "1", "-1", "2", "3", "7", "-5", "10", "42", "100", "-100", "2147483647", "-2147483648"}
	bigintPool = []string{"0", "1", "-1", "2", "3", "7", "-5", "10", "42", "1000000", "-1000000", "9007199254740993", "-9223372036854775807"}
	// Doubles are multiples of 1/4 (sums are exact in any order) plus
	// the IEEE special values.
	doublePool = []string{"0.0", "1.0", "-1.0", "0.25", "-0.5", "2.5", "3.0", "10.75", "1.0E10",
		"CAST('NaN' AS DOUBLE)", "CAST('-0.0' AS DOUBLE)", "CAST('Infinity' AS DOUBLE)", "CAST('-Infinity' AS DOUBLE)"}
	stringPool = []string{"''", "'a'", "'A'", "'ab'", "'b'", "'abc'", "'a|b'", "'x,y'", `'q"uote'`, `'it\'s'`,
		`'line\nbreak'`, "' '", "'é'", "'日本'", "'%'", "'_'", "'10'", "'-1'", "'null'", "'a\\\\b'", "'Zz'"}
	// Partition values avoid characters a path cannot hold portably, and
	// the empty string, which Spark writes as __HIVE_DEFAULT_PARTITION__
	// and reads back as NULL (so a partitioned table and its flat twin
	// differ there by design).
	partStringPool = []string{"'a'", "'b'", "'ab'", "'x y'", "'é'", "'10'", "'a=b'", "'p/q'", "'%'"}
	datePool       = []string{"DATE '2026-01-01'", "DATE '2026-11-30'", "DATE '1970-01-01'", "DATE '2000-02-29'", "DATE '1969-12-31'", "DATE '2026-12-01'"}
	tsPool         = []string{"TIMESTAMP '2026-01-01 00:00:00'", "TIMESTAMP '2026-11-30 12:00:00'", "TIMESTAMP '2026-11-30 12:00:00.5'",
		"TIMESTAMP '1970-01-01 00:00:00'", "TIMESTAMP '1969-12-31 23:59:59.999'", "TIMESTAMP '2000-02-29 08:15:30'"}
)

// genValue draws a literal of type t, NULL about one time in six.
func genValue(r *rand.Rand, t Type, part bool) string {
	if r.IntN(6) == 0 {
		return "NULL"
	}
	return genLiteral(r, t, part)
}

// genLiteral draws a non-NULL literal of type t.
func genLiteral(r *rand.Rand, t Type, part bool) string {
	pick := func(p []string) string { return p[r.IntN(len(p))] }
	switch t {
	case BigInt:
		return pick(bigintPool)
	case Int:
		if part {
			return pick(intPool[:11])
		}
		return pick(intPool)
	case Double:
		return pick(doublePool)
	case String:
		if part {
			return pick(partStringPool)
		}
		return pick(stringPool)
	case Boolean:
		return pick([]string{"true", "false"})
	case Date:
		return pick(datePool)
	case Timestamp:
		return pick(tsPool)
	}
	panic("unknown type " + t)
}
