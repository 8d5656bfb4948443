package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/engine/sparkstmt"
	"sluice/internal/exec"
	"sluice/internal/sql"
	"sluice/internal/storage"
	"sluice/internal/types"
)

// StringRows is stringRows for callers outside the engine (the shell's
// meta commands assemble listings from several statements' answers).
func StringRows(cols []string, rows [][]string) *Result { return stringRows(cols, rows) }

// stringRows builds a result of STRING columns: what SHOW, DESCRIBE and
// EXPLAIN print. Every cell is redacted (sql.RedactText): they show
// options, locations, statements and errors, never data.
func stringRows(cols []string, rows [][]string) *Result {
	fs := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fs[i] = arrow.Field{Name: c, Type: types.String, Nullable: true}
	}
	schema := arrow.NewSchema(fs, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, r := range rows {
		for i, v := range r {
			if v == sparkstmt.NullCell {
				b.Field(i).AppendNull()
				continue
			}
			b.Field(i).(*array.StringBuilder).Append(sql.RedactText(v))
		}
	}
	rec := b.NewRecordBatch()
	return &Result{Schema: schema, Batches: []arrow.RecordBatch{rec}}
}

// redact is how an option value may be shown (sql.RedactValue).
func redact(key, value string) string { return sql.RedactValue(key, value) }

func (e *Engine) set(ctx context.Context, s *sql.Set) (*Result, error) {
	if strings.EqualFold(s.Key, memoryLimitKey) {
		if _, err := exec.ParseByteSize(s.Value.Value); err != nil {
			return nil, fmt.Errorf("SET %s: %w", s.Key, err)
		}
	}
	if strings.EqualFold(s.Key, sparkstmt.TimeZoneKey) {
		if err := sparkstmt.CheckUTCZone(s.Value.Value); err != nil {
			return nil, err
		}
	}
	e.session(ctx).set(s.Key, s.Value.Value)
	if storage.IsOptionKey(strings.ToLower(s.Key)) {
		// A habit from Spark's spark.hadoop.fs.s3a.*: those persist in a
		// config file, these do not, and a next run failing on DNS or IMDS
		// is far from this line.
		return message("%s set for this session only (put it in the table's OPTIONS to keep it)", s.Key), nil
	}
	return message("%s set", s.Key), nil
}

func (e *Engine) reset(ctx context.Context, s *sql.Reset) (*Result, error) {
	e.session(ctx).reset(s.Key)
	return message("%s reset", s.Key), nil
}

func (e *Engine) showSettings(ctx context.Context) (*Result, error) {
	settings := e.session(ctx).settingsCopy()
	keys := slices.Sorted(maps.Keys(settings))
	rows := make([][]string, len(keys))
	for i, k := range keys {
		rows[i] = []string{k, redact(k, settings[k])}
	}
	return stringRows([]string{"key", "value"}, rows), nil
}
