package sparkstmt

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"sluice/internal/exec"
	"sluice/internal/sql"
	"sluice/internal/storage"
)

// MemoryLimitKey is the setting that bounds each query's operator state
// in bytes (the engine reads it; Set checks its value).
const MemoryLimitKey = "memory_limit"

// Set runs SET key = value in the session: memory_limit must be a size
// and the time zone UTC (SetTimeZone); SET key shows the value.
func (e *Runner) Set(ctx context.Context, s *sql.Set) (*Result, error) {
	if s.Value == nil { // Spark's SET key: the setting's value
		v, ok := e.h.Settings(ctx)[strings.ToLower(s.Key)]
		if !ok {
			v = "<undefined>" // Spark's answer for a key never set
		}
		return stringRows([]string{"key", "value"}, [][]string{{s.Key, redact(s.Key, v)}}), nil
	}
	if strings.EqualFold(s.Key, MemoryLimitKey) {
		if _, err := exec.ParseByteSize(s.Value.Value); err != nil {
			return nil, fmt.Errorf("SET %s: %w", s.Key, err)
		}
	}
	if strings.EqualFold(s.Key, TimeZoneKey) {
		if err := CheckUTCZone(s.Value.Value); err != nil {
			return nil, err
		}
	}
	e.h.Set(ctx, s.Key, s.Value.Value)
	if storage.IsOptionKey(strings.ToLower(s.Key)) {
		// A habit from Spark's spark.hadoop.fs.s3a.*: those persist in a
		// config file, these do not, and a next run failing on DNS or IMDS
		// is far from this line.
		return message("%s set for this session only (put it in the table's OPTIONS to keep it)", s.Key), nil
	}
	return message("%s set", s.Key), nil
}

// Reset runs RESET key.
func (e *Runner) Reset(ctx context.Context, s *sql.Reset) (*Result, error) {
	e.h.Reset(ctx, s.Key)
	return message("%s reset", s.Key), nil
}

// ShowSettings runs SET without a key: the session's settings, redacted.
func (e *Runner) ShowSettings(ctx context.Context) (*Result, error) {
	settings := e.h.Settings(ctx)
	keys := slices.Sorted(maps.Keys(settings))
	rows := make([][]string, len(keys))
	for i, k := range keys {
		rows[i] = []string{k, redact(k, settings[k])}
	}
	return stringRows([]string{"key", "value"}, rows), nil
}
