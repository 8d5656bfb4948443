// Package skipindex builds and reads OpenSearch Flint skipping indexes:
// one row per data file of a file table, holding, for each indexed
// column, its PARTITION value, VALUE_SET, MIN_MAX range or BLOOM_FILTER.
// The engine runs a stream over the table whose rows (the file, then the
// indexed columns) go through a Sink from this package, which folds each
// epoch's rows per file and writes the index rows to the index table (the
// local index or OpenSearch). Decode turns the index table's rows back
// into connector.FileSkipping for file pruning.
package skipindex

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// Skip types, as Flint spells them.
const (
	Partition   = "PARTITION"
	ValueSet    = "VALUE_SET"
	MinMax      = "MIN_MAX"
	BloomFilter = "BLOOM_FILTER"
)

// DefaultValueSetLimit is Flint's VALUE_SET default: a file with more
// distinct values keeps no set (and is never skipped by it).
const DefaultValueSetLimit = 100

// Column is one indexed column.
type Column struct {
	Name string `json:"column"`
	Kind string `json:"kind"`
	// Type is the column's SQL type name.
	Type string `json:"type"`
	// Limit is VALUE_SET's most distinct values.
	Limit int `json:"limit,omitempty"`
	// Adaptive, Items and FPP are BLOOM_FILTER's parameters: Flint's
	// adaptive filter (the default) is sized here for the file's actual
	// distinct count; BLOOM_FILTER(false, items, fpp) for items.
	Adaptive bool    `json:"adaptive,omitempty"`
	Items    int     `json:"items,omitempty"`
	FPP      float64 `json:"fpp,omitempty"`
}

// NewColumn checks a skip type's parameters (as written) for a column of
// type t and returns the column.
func NewColumn(name, kind string, params []string, t arrow.DataType) (Column, error) {
	c := Column{Name: name, Kind: strings.ToUpper(kind), Type: types.SQLName(t)}
	bad := func(format string, a ...any) (Column, error) {
		return Column{}, fmt.Errorf("column %s %s: %s", name, c.Kind, fmt.Sprintf(format, a...))
	}
	switch c.Kind {
	case Partition, MinMax:
		if len(params) > 0 {
			return bad("takes no parameters")
		}
	case ValueSet:
		c.Limit = DefaultValueSetLimit
		if len(params) > 1 {
			return bad("takes one parameter, the limit")
		}
		if len(params) == 1 {
			n, err := strconv.Atoi(params[0])
			if err != nil || n <= 0 {
				return bad("limit %q is not a positive integer", params[0])
			}
			c.Limit = n
		}
	case BloomFilter:
		c.Adaptive, c.Items, c.FPP = true, 0, 0.03
		rest := params
		if len(rest) > 0 && strings.EqualFold(rest[0], "false") {
			c.Adaptive, c.Items = false, 10000
			rest = rest[1:]
			if len(rest) > 0 {
				n, err := strconv.Atoi(rest[0])
				if err != nil || n <= 0 {
					return bad("num_items %q is not a positive integer", rest[0])
				}
				c.Items, rest = n, rest[1:]
			}
		} else if len(rest) > 0 {
			if strings.EqualFold(rest[0], "true") {
				rest = rest[1:]
			} else if _, err := strconv.Atoi(rest[0]); err == nil {
				rest = rest[1:] // num_candidate: one filter sized to the data instead
			} else {
				return bad("num_candidate %q is not a positive integer", rest[0])
			}
		}
		if len(rest) > 0 {
			p, err := strconv.ParseFloat(rest[0], 64)
			if err != nil || p <= 0 || p >= 1 {
				return bad("fpp %q is not between 0 and 1", rest[0])
			}
			c.FPP, rest = p, rest[1:]
		}
		if len(rest) > 0 {
			return bad("too many parameters")
		}
	default:
		return bad("unknown skip type (PARTITION, VALUE_SET, MIN_MAX, BLOOM_FILTER)")
	}
	return c, nil
}

// FileColumn is the index table's column naming the data file, and
// VersionColumn the one holding the file's version (ETag) when indexed.
const (
	FileColumn    = "file_path"
	VersionColumn = "file_version"
)

// Fields are the index table's columns for c, as Flint names them:
// col_min and col_max for MIN_MAX, col otherwise. Values are stored as
// tagged text (see encodeValue) so both sinks keep them exactly.
func (c Column) Fields() []string {
	n := strings.ToLower(c.Name)
	if c.Kind == MinMax {
		return []string{n + "_min", n + "_max"}
	}
	return []string{n}
}

// Schema is the index table's schema for cols.
func Schema(cols []Column) *arrow.Schema {
	fs := []arrow.Field{{Name: FileColumn, Type: types.String, Nullable: true}, {Name: VersionColumn, Type: types.String, Nullable: true}}
	for _, c := range cols {
		for _, f := range c.Fields() {
			fs = append(fs, arrow.Field{Name: f, Type: types.String, Nullable: true})
		}
	}
	return arrow.NewSchema(fs, nil)
}
