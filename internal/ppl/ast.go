package ppl

import "sluice/internal/sql"

// Pipeline is a parsed PPL query: its source, then commands in order.
type Pipeline struct {
	At       sql.Pos
	Source   *Source
	Commands []Command
}

// Command is one | stage of a pipeline.
type Command interface{ pos() sql.Pos }

// Source is source=t [as alias] [search expression].
type Source struct {
	At     sql.Pos
	Table  string
	Alias  string
	Search SearchExpr // nil when none (parse_search.go)
	// Sub is a subsearch used as a join's right side ([ source=... ]).
	Sub *Pipeline
	// Describe is describe t | ...: the rows are Table's columns
	// (translate_describe.go).
	Describe bool
}

// Where is where <predicate>.
type Where struct {
	At   sql.Pos
	Cond sql.Expr
}

// Fields is fields [+|-] a, b (Exclude for -); names may end in *.
type Fields struct {
	At      sql.Pos
	Exclude bool
	Names   []Name
}

// Name is a field name as written, with its position.
type Name struct {
	At   sql.Pos
	Name string
}

// Assign is name = expr in eval.
type Assign struct {
	At   sql.Pos
	Name string
	Expr sql.Expr
}

// Eval is eval x = e, ...; later assignments see earlier ones.
type Eval struct {
	At      sql.Pos
	Assigns []Assign
}

// Agg is one aggregation of stats: the call and its output name.
type Agg struct {
	At   sql.Pos
	Call sql.Expr
	Name string
}

// Span is span(field, size) in a by clause: Unit is "" for a numeric span.
type Span struct {
	At    sql.Pos
	Field sql.Expr
	Size  string // the number as written
	Unit  string // ms, s, m, h, d, w, M, q, y; "" for numbers
}

// Group is one by-clause item: an expression or a span, with its name.
type Group struct {
	At   sql.Pos
	Expr sql.Expr // nil for a span
	Span *Span
	Name string
}

// Stats is stats agg [as n], ... [by g, ...].
type Stats struct {
	At   sql.Pos
	Aggs []Agg
	By   []Group
	// NoNullKeys is bucket_nullable=false: rows with a NULL by value
	// form no group (stats) or get NULL aggregates (eventstats).
	NoNullKeys bool
}

// EventStats is eventstats agg [as n], ... [by g, ...]: each row gets
// its group's aggregates as new fields.
type EventStats struct{ Stats }

// Trend is one sma(n, field) [as alias] of trendline.
type Trend struct {
	At    sql.Pos
	N     int64
	Field sql.Expr
	Name  string
	WMA   bool // wma: weights 1..n, the latest row n; else sma
}

// Trendline is trendline [sort [+|-]f] sma(n, f) [as a] ...: moving
// averages over the sort order.
type Trendline struct {
	At     sql.Pos
	Sort   []SortKey
	Trends []Trend
}

// SortKey is [+|-] expr [asc|desc].
type SortKey struct {
	Expr sql.Expr
	Desc bool
}

// Sort is sort k, ....
type Sort struct {
	At   sql.Pos
	Keys []SortKey
	// Count is sort N ...: only the first N rows (0: all).
	Count int64
}

// Head is head [n] [from m].
type Head struct {
	At       sql.Pos
	N, From  int64
	HasCount bool
}

// Dedup is dedup [n] a, b [keepempty=b] [consecutive=b].
type Dedup struct {
	At          sql.Pos
	N           int64
	Fields      []Name
	KeepEmpty   bool
	Consecutive bool
}

// Rename is rename a as b, ....
type Rename struct {
	At       sql.Pos
	From, To []Name
}

// Top is top/rare [n] [showcount=] [countfield=] fields [by g]; Rare
// orders by ascending count.
type Top struct {
	At         sql.Pos
	Rare       bool
	N          int64
	ShowCount  bool
	CountField string
	NoNull     bool // usenull=false: rows with a NULL field are left out
	Fields     []Name
	By         []Name
}

// ParseRegex is parse field 'regex' and grok field 'pattern' (Grok set): named
// groups become string fields.
type ParseRegex struct {
	At      sql.Pos
	Field   sql.Expr
	Pattern string
	PatAt   sql.Pos
	Grok    bool
}

// Patterns is patterns field [by g, ...] [method=simple_pattern|brain]
// [mode=label|aggregation] [new_field=x] [pattern='re']
// [max_sample_count=n] [variable_count_threshold=n]
// [frequency_threshold_percentage=p] [buffer_limit=n].
type Patterns struct {
	At          sql.Pos
	Field       sql.Expr
	By          []Name
	NewField    string
	Pattern     string // "" for the default
	Brain       bool
	Aggregation bool
	MaxSamples  int64
	VarCount    int64   // brain: variable_count_threshold
	FreqPct     float64 // brain: frequency_threshold_percentage
}

// FillNull is fillnull with v [in a, b] or fillnull using a = v, ....
type FillNull struct {
	At     sql.Pos
	With   sql.Expr // for with/value=; nil for using
	Fields []Name   // with ... in; nil: every field
	Using  []Assign
}

// LookupField is name [as name].
type LookupField struct {
	At      sql.Pos
	Name    string
	As      string // "" when absent
	AsAt    sql.Pos
	HasName bool
}

// Lookup is lookup t key [as k], ... [replace|append|output] col [as c], ....
type Lookup struct {
	At     sql.Pos
	Table  string
	Keys   []LookupField
	Append bool
	Cols   []LookupField
}

// Join is [type] join [left = l] [right = r] on cond right-dataset, or
// join [type=t] fields right-dataset.
type Join struct {
	At          sql.Pos
	Kind        string // inner, left, right, full, cross, semi, anti
	LeftAlias   string
	RightAlias  string
	On          sql.Expr // nil with Fields
	Fields      []Name   // the join-field-list form
	Right       *Source
	RightAt     sql.Pos
	NoOverwrite bool
	// Max is max=n: at most n right rows per left row (0: every match).
	Max int64
}

// Timechart is timechart [timefield=f] [span=s] [limit=n] [useother=b]
// [usenull=b] [nullstr=s] agg [by field].
type Timechart struct {
	At        sql.Pos
	TimeField Name
	Span      *Span // its Field is TimeField's reference
	Agg       Agg
	By        *Name
	Limit     int64
	UseOther  bool
	UseNull   bool
	NullStr   string
}

// Append is append [ subsearch ]: the subsearch's rows after the input's,
// fields matched by name.
type Append struct {
	At  sql.Pos
	Sub *Pipeline
}

// Expand is expand field [as alias]: a row per element of an array.
type Expand struct {
	At    sql.Pos
	Field Name
	As    string
	Limit int64 // mvexpand limit=n; 0: every element
}

// Flatten is flatten field [as a, b, ...]: a struct's fields as fields.
type Flatten struct {
	At    sql.Pos
	Field Name
	As    []Name
}

// StreamStats is streamstats [current=b] [window=n] [global=b]
// [bucket_nullable=b] agg [as n], ... [by g, ...]: running aggregates.
type StreamStats struct {
	Stats
	NoCurrent  bool  // current=false
	Window     int64 // 0: every row so far
	Local      bool  // global=false
	NoNullKeys bool  // bucket_nullable=false
	// ResetBefore, ResetAfter are reset_before=, reset_after=: the
	// aggregates start over before / after a row where they hold.
	ResetBefore, ResetAfter sql.Expr
}

// Replace is replace 'p' WITH 'r' [, 'p' WITH 'r']... IN f [, f]...: each
// field's text with every pair applied in order.
type Replace struct {
	At     sql.Pos
	Pairs  []ReplacePair
	Fields []Name
}

// ReplacePair is one 'pattern' WITH 'replacement' of replace.
type ReplacePair struct {
	At          sql.Pos
	Pattern     string
	Replacement string
}

// Transpose is transpose [n] [column_name=s]: the first n rows as
// columns "row 1".."row n", one row per field.
type Transpose struct {
	At     sql.Pos
	N      int64
	Column string
}

// Convert is convert [timeformat=s] fn(f) [as a], ...: each field
// replaced (or a new one added) by its conversion to a number.
type Convert struct {
	At         sql.Pos
	TimeFormat string
	Convs      []Conversion
}

// Conversion is one fn(field) [as alias] of convert.
type Conversion struct {
	At    sql.Pos
	Func  string // lower case: auto, num, rmcomma, rmunit, memk, dur2sec, mstime, none
	Field Name
	As    string
}

// Spath is spath input=f [output=o] [path=]p: the value at JSON path p
// of f's text, as the field o (p by default).
type Spath struct {
	At     sql.Pos
	Input  Name
	Output string
	Path   string
}

// Bin is bin field span=s [as alias]: the field replaced by its bucket.
type Bin struct {
	At    sql.Pos
	Field Name
	// Span is span=; for a log span (LogBase > 0) only its position.
	Span             *Span
	LogCoef, LogBase float64
	// Bins, MinSpan, Start and End are the numbers as written ("" when
	// absent); AlignTime is aligntime='s text.
	Bins, MinSpan, Start, End string
	AlignTime                 string
	As                        string
}

// AppendCol is appendcol [override=b] [ command | ... ]: the commands
// run over the pipeline's source, their rows pasted beside the input's.
type AppendCol struct {
	At       sql.Pos
	Override bool
	Commands []Command
}

// AppendPipe is appendpipe [ command | ... ]: the commands run over the
// input's rows, their rows appended.
type AppendPipe struct {
	At       sql.Pos
	Commands []Command
}

// Regex is regex field = 'pattern' (or !=): a filter on a match.
type Regex struct {
	At      sql.Pos
	Field   Name
	Not     bool
	Pattern string
	PatAt   sql.Pos
}

// AddTotals is addtotals / addcoltotals [fields] [row=b] [col=b]
// [label=s] [labelfield=f] [fieldname=f]: row totals as a field, column
// totals as a last row.
type AddTotals struct {
	At         sql.Pos
	Fields     []Name // nil: every numeric field
	Row, Col   bool
	Label      string
	LabelField string
	FieldName  string
}

// Rex is rex [mode=extract|sed] field=f 'pattern' [max_match=n].
type Rex struct {
	At       sql.Pos
	Field    Name
	Sed      bool
	Pattern  string
	PatAt    sql.Pos
	MaxMatch int64 // 1 by default; 0: every match
	// OffsetField is offset_field=: a field of the groups' positions.
	OffsetField string
}

// MvCombine is mvcombine field: rows equal but for the field become one,
// its values an array. NoMv is nomv field: an array joined by newlines.
type MvCombine struct {
	At    sql.Pos
	Field Name
	NoMv  bool
}

// Reverse is reverse: the rows in the opposite order.
type Reverse struct{ At sql.Pos }

func (c *Where) pos() sql.Pos      { return c.At }
func (c *Replace) pos() sql.Pos    { return c.At }
func (c *Transpose) pos() sql.Pos  { return c.At }
func (c *Convert) pos() sql.Pos    { return c.At }
func (c *Spath) pos() sql.Pos      { return c.At }
func (c *Fields) pos() sql.Pos     { return c.At }
func (c *Eval) pos() sql.Pos       { return c.At }
func (c *Stats) pos() sql.Pos      { return c.At }
func (c *Sort) pos() sql.Pos       { return c.At }
func (c *Trendline) pos() sql.Pos  { return c.At }
func (c *Head) pos() sql.Pos       { return c.At }
func (c *Dedup) pos() sql.Pos      { return c.At }
func (c *Rename) pos() sql.Pos     { return c.At }
func (c *Top) pos() sql.Pos        { return c.At }
func (c *ParseRegex) pos() sql.Pos { return c.At }
func (c *Patterns) pos() sql.Pos   { return c.At }
func (c *FillNull) pos() sql.Pos   { return c.At }
func (c *Lookup) pos() sql.Pos     { return c.At }
func (c *Join) pos() sql.Pos       { return c.At }
func (c *Reverse) pos() sql.Pos    { return c.At }
func (c *Timechart) pos() sql.Pos  { return c.At }
func (c *Append) pos() sql.Pos     { return c.At }
func (c *Expand) pos() sql.Pos     { return c.At }
func (c *Flatten) pos() sql.Pos    { return c.At }
func (c *Bin) pos() sql.Pos        { return c.At }
func (c *AppendCol) pos() sql.Pos  { return c.At }
func (c *AppendPipe) pos() sql.Pos { return c.At }
func (c *Regex) pos() sql.Pos      { return c.At }
func (c *AddTotals) pos() sql.Pos  { return c.At }
func (c *Rex) pos() sql.Pos        { return c.At }
func (c *MvCombine) pos() sql.Pos  { return c.At }

var (
	_ Command = (*Where)(nil)
	_ Command = (*Fields)(nil)
	_ Command = (*Eval)(nil)
	_ Command = (*Stats)(nil)
	_ Command = (*EventStats)(nil)
	_ Command = (*Trendline)(nil)
	_ Command = (*Sort)(nil)
	_ Command = (*Head)(nil)
	_ Command = (*Dedup)(nil)
	_ Command = (*Rename)(nil)
	_ Command = (*Top)(nil)
	_ Command = (*ParseRegex)(nil)
	_ Command = (*Patterns)(nil)
	_ Command = (*FillNull)(nil)
	_ Command = (*Lookup)(nil)
	_ Command = (*Join)(nil)
	_ Command = (*Reverse)(nil)
	_ Command = (*Timechart)(nil)
	_ Command = (*Append)(nil)
	_ Command = (*Expand)(nil)
	_ Command = (*Flatten)(nil)
	_ Command = (*StreamStats)(nil)
	_ Command = (*Bin)(nil)
	_ Command = (*AppendCol)(nil)
	_ Command = (*AppendPipe)(nil)
	_ Command = (*Regex)(nil)
	_ Command = (*AddTotals)(nil)
	_ Command = (*Rex)(nil)
	_ Command = (*MvCombine)(nil)
)
