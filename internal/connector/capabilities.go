package connector

// Capabilities is what a connector declares it does, next to its
// Factory, so that the conformance suite (internal/connector/conformance)
// checks exactly that and guesses nothing. A check the connector cannot
// pass is declared here as a limitation, with a comment saying why.
//
// Type kinds are the SQL spellings of types.SQLName without parameters:
// BOOLEAN INT BIGINT DOUBLE DECIMAL STRING BINARY DATE TIMESTAMP, and the
// nested ARRAY MAP STRUCT. The suite builds columns of every scalar kind,
// of every nested kind over them and of nested combinations
// (ARRAY<STRUCT<...>>, MAP<STRING, ARRAY<...>>, ...), NULLs at every
// level, and checks a column when every kind in its type is in Types.
type Capabilities struct {
	// ReadBack is true when rows written through NewSink come back
	// through NewSource over the same spec (false for a sink that only
	// prints). Without it only the options and a write smoke check run.
	ReadBack bool
	// Types lists the kinds that round-trip exactly through a declared
	// schema: the source's schema is the declared one and every value
	// (NULLs included) comes back equal.
	Types []string
	// Limits are whole column types (types.SQLName spelling, such as
	// "ARRAY<ARRAY<INT>>") that do not round-trip although their kinds
	// do, each with the reason; the suite leaves them out.
	Limits map[string]string
	// Inferred says, for a connector with Infer, what each kind comes
	// back as when the table is declared without columns and its schema
	// is inferred from what the sink wrote (DATE -> STRING for JSON,
	// which cannot tell a date from a string). A kind in Types but not
	// here comes back as itself; a kind mapped to "" is not checked
	// (inference cannot tell it at all). Struct fields may come back in
	// another order. nil: inference is not checked.
	Inferred map[string]string
	// TableOptions are given to every table the suite makes (CSV:
	// header 'true', without which Infer cannot name the columns).
	TableOptions map[string]string
	// ReplaySafe is true when writing an epoch again after a crash (a
	// fresh sink, the same SinkOptions and input, BeginEpoch when the
	// sink has it, then Flush of the same epoch) leaves each row once.
	ReplaySafe bool
	// Search is true for search-index sinks (the id, action and
	// text_fields options, match() pushed down): they also pass the
	// search checks (upserts by id, replays in any order, full-text
	// predicates pushed exactly).
	Search bool
	// Skip names the suite's checks the connector is known to fail, each
	// with why: sub-test paths under the connector's name, as go test
	// prints them ("pushdown/filter/c_date_>_v"), where a segment may be
	// a path.Match pattern ("pushdown/aggregate/*/max(c_bigint)"). A
	// check under a listed path is skipped, with the reason logged.
	Skip map[string]string
	// DropKeepsForeign is true when Drop deletes nothing and fails if the
	// table's folder (its LOCATION, or OPTIONS path) holds a file the
	// connector did not write.
	DropKeepsForeign bool
}
