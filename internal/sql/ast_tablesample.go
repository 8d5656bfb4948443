package sql

import (
	"strconv"
	"strings"
)

// SampleKind is how a TableSample picks rows.
type SampleKind int

// The sample methods of TABLESAMPLE.
const (
	// SamplePercent keeps each row with probability Value/100.
	SamplePercent SampleKind = iota
	// SampleRows keeps the first Value rows, as Spark's LIMIT does.
	SampleRows
	// SampleBucket keeps the rows that fall in bucket Bucket of OutOf:
	// a fraction 1/OutOf, the buckets of one seed disjoint.
	SampleBucket
)

// TableSample is TABLESAMPLE (n PERCENT | n ROWS | BUCKET x OUT OF y)
// [REPEATABLE (seed)] after a table name, before its alias, as Spark
// writes it.
type TableSample struct {
	At    Pos
	Kind  SampleKind
	Value Expr // the percentage (maybe negative, for the binder to refuse) or the row count
	// Bucket and OutOf are BUCKET x OUT OF y.
	Bucket, OutOf int64
	// Seed is REPEATABLE (seed); nil when not written (a random seed).
	Seed *int64
}

func (s *TableSample) Pos() Pos { return s.At }

func (s *TableSample) String() string {
	var b strings.Builder
	b.WriteString("TABLESAMPLE (")
	switch s.Kind {
	case SamplePercent:
		b.WriteString(s.Value.String() + " PERCENT")
	case SampleRows:
		b.WriteString(s.Value.String() + " ROWS")
	case SampleBucket:
		b.WriteString("BUCKET " + strconv.FormatInt(s.Bucket, 10) + " OUT OF " + strconv.FormatInt(s.OutOf, 10))
	}
	b.WriteByte(')')
	if s.Seed != nil {
		b.WriteString(" REPEATABLE (" + strconv.FormatInt(*s.Seed, 10) + ")")
	}
	return b.String()
}
