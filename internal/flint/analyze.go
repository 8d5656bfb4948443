package flint

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/skipindex"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// analyzeSkippingIndex is ANALYZE SKIPPING INDEX ON t: Flint's rules
// (partition columns PARTITION, booleans VALUE_SET, integers MIN_MAX,
// strings, dates and timestamps BLOOM_FILTER), and from the table's
// statistics, VALUE_SET for a low cardinality column: at most
// VALUE_SET's limit of distinct values, each in ten rows or more on
// average.
func (f *Flint) analyzeSkippingIndex(ctx context.Context, s *sql.AnalyzeSkippingIndex) (*Result, error) {
	t, err := f.h.Table(ctx, s.Table)
	if err != nil {
		return nil, fmt.Errorf("ANALYZE SKIPPING INDEX: %w", err)
	}
	isPart := map[string]bool{}
	for _, p := range t.Spec.PartitionBy {
		isPart[strings.ToLower(p)] = true
	}
	var counted []string
	items := []*sql.SelectItem{sql.Item(sql.CountAll())}
	for _, fd := range t.Spec.Schema.Fields() {
		if !isPart[strings.ToLower(fd.Name)] && recommendable(fd.Type) {
			counted = append(counted, fd.Name)
			items = append(items, sql.Item(sql.NewCall("approx_count_distinct", sql.Col(fd.Name))))
		}
	}
	distinct := map[string]int64{}
	if len(counted) > 0 {
		batches, err := f.h.Select(ctx, sql.NewQuery(sql.NewSelect(sql.TableRef(t.Spec.Name), items...)))
		if err != nil {
			return nil, fmt.Errorf("ANALYZE SKIPPING INDEX ON %s: column statistics: %w", t.Spec.Name, err)
		}
		for _, b := range batches {
			if b.NumRows() == 0 {
				continue
			}
			rows, _ := types.ValueAt(b.Column(0), 0).(int64)
			for i, c := range counted {
				// Low cardinality: few values, each repeated (on
				// average ten times or more).
				if v, ok := types.ValueAt(b.Column(i+1), 0).(int64); ok && v*10 <= rows {
					distinct[c] = v
				}
			}
		}
	}
	var rows [][]string
	for _, fd := range t.Spec.Schema.Fields() {
		typ := sparkTypeName(types.SQLName(fd.Type))
		kind, reason := recommend(fd, isPart[strings.ToLower(fd.Name)], distinct)
		if kind != "" {
			rows = append(rows, []string{fd.Name, typ, kind, reason})
		}
	}
	return stringRows([]string{"column_name", "column_type", "skipping_type", "reason"}, rows), nil
}

func recommendable(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64, arrow.STRING,
		arrow.LARGE_STRING, arrow.DATE32, arrow.TIMESTAMP:
		return true
	}
	return false
}

// recommend picks a column's skip type and says why, in Flint's words.
func recommend(f arrow.Field, part bool, distinct map[string]int64) (string, string) {
	sparkType := map[arrow.Type]string{arrow.BOOL: "BooleanType", arrow.INT8: "ByteType", arrow.INT16: "ShortType",
		arrow.INT32: "IntegerType", arrow.INT64: "LongType", arrow.FLOAT32: "FloatType", arrow.FLOAT64: "DoubleType",
		arrow.STRING: "StringType", arrow.LARGE_STRING: "StringType", arrow.DATE32: "DateType", arrow.TIMESTAMP: "TimestampType"}[f.Type.ID()]
	because := func(kind, why string) (string, string) {
		return kind, kind + " data structure is recommended for " + why
	}
	switch {
	case part:
		return because(skipindex.Partition, "partition columns")
	case f.Type.ID() == arrow.BOOL:
		return because(skipindex.ValueSet, sparkType+" columns")
	case !recommendable(f.Type):
		return "", ""
	}
	if n, ok := distinct[f.Name]; ok && n > 0 && n <= skipindex.DefaultValueSetLimit {
		return because(skipindex.ValueSet, fmt.Sprintf("low cardinality columns (about %d distinct values)", n))
	}
	switch f.Type.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64:
		return because(skipindex.MinMax, sparkType+" columns")
	}
	return because(skipindex.BloomFilter, sparkType+" columns")
}
