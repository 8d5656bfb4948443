package connector

import "context"

// FileSkipping is a skipping index's data about a file table's files (an
// OpenSearch Flint skipping index), handed to a source that can use it.
// Files is keyed by file URI, what the _file column holds. A file that is
// not in Files has not been indexed yet and is never skipped.
type FileSkipping struct {
	Files map[string]*FileSkipStats
}

// FileSkipStats is what a skipping index knows of one file's column
// values, by column name in lower case. Values are normalized: int64 for
// integers, DATE (days) and TIMESTAMP (microseconds), float64, string,
// bool; a float64 with an integral value is held as int64.
type FileSkipStats struct {
	// Version is the file's version (its ETag) when it was indexed: a
	// file whose version differs now was rewritten since and is read.
	Version string
	// MinMax holds each MIN_MAX column's smallest and largest non-null
	// value; absent when the file had none.
	MinMax map[string][2]any
	// ValueSets holds each VALUE_SET column's distinct non-null values;
	// absent when there were more than the index's limit.
	ValueSets map[string][]any
	// Blooms holds each BLOOM_FILTER column's filter.
	Blooms map[string]MembershipFilter
}

// MembershipFilter answers "may v be in the set?" with no false
// negatives (a bloom filter). v is normalized as in FileSkipStats.
type MembershipFilter interface {
	MightContain(v any) bool
}

// FileSkipper is a source that skips the files a pushed filter's
// conjuncts rule out by a skipping index's data. WithFileSkipping returns
// a source that does so (the receiver is left as it is); its EXPLAIN text
// counts the files skipped. Files that may hold a matching row, and files
// not in the index, are always read.
type FileSkipper interface {
	WithFileSkipping(*FileSkipping) Source
	// FileVersion is the current version (ETag) of the file at uri, as
	// the source's listing reports it; what a skipping index records.
	FileVersion(ctx context.Context, uri string) (string, error)
}
