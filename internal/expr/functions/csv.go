package functions

import (
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/sql"
	"sluice/internal/types"
)

// CSV functions over one line of text, comma-separated.

func csvFields(s string) ([]string, bool) {
	r := csv.NewReader(strings.NewReader(s))
	r.LazyQuotes = true
	rec, err := r.Read()
	if err != nil {
		return nil, false
	}
	return rec, true
}

// from_csv(s, schema): schema as for from_json; a field that does not
// parse is NULL.
func bindFromCSV(args []Arg) (*Bound, error) {
	schema, ok := constString(args[1])
	if !ok {
		return nil, fmt.Errorf("function from_csv expects a constant schema")
	}
	t, err := sql.ParseType("STRUCT<" + schema + ">")
	if err != nil {
		if t, err = sql.ParseType(schema); err != nil {
			return nil, fmt.Errorf("function from_csv: invalid schema %q: %w", schema, err)
		}
	}
	st, ok := t.(*arrow.StructType)
	if !ok {
		return nil, fmt.Errorf("function from_csv expects a STRUCT schema, got %s", sqlName(t))
	}
	return rowFn("from_csv", st, ps(pString, pString), func(v []any) (any, error) {
		rec, ok := csvFields(v[0].(string))
		if !ok {
			return nil, nil
		}
		out := map[string]any{}
		for i, f := range st.Fields() {
			if i >= len(rec) {
				out[f.Name] = nil
				continue
			}
			out[f.Name] = csvAs(strings.TrimSpace(rec[i]), f.Type)
		}
		return out, nil
	})(args)
}

func csvAs(s string, t arrow.DataType) any {
	switch {
	case types.IsInteger(t):
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i
		}
		return nil
	case t.ID() == arrow.DECIMAL128:
		return s
	case types.IsNumeric(t):
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
		return nil
	case t.ID() == arrow.BOOL:
		if b, ok := ParseBool(s); ok {
			return b
		}
		return nil
	}
	return s
}

// schema_of_csv: _c0, _c1, ... typed INT, BIGINT, DOUBLE, BOOLEAN or
// STRING as Spark infers them.
var bindSchemaOfCSV = rowFn("schema_of_csv", types.String, ps(pString), func(v []any) (any, error) {
	rec, ok := csvFields(v[0].(string))
	if !ok {
		return nil, fmt.Errorf("malformed CSV %q", v[0])
	}
	parts := make([]string, len(rec))
	for i, f := range rec {
		t := "STRING"
		f = strings.TrimSpace(f)
		if n, err := strconv.ParseInt(f, 10, 64); err == nil {
			t = "BIGINT"
			if n >= -1<<31 && n < 1<<31 {
				t = "INT"
			}
		} else if _, err := strconv.ParseFloat(f, 64); err == nil {
			t = "DOUBLE"
		} else if _, ok := ParseBool(f); ok {
			t = "BOOLEAN"
		}
		parts[i] = fmt.Sprintf("_c%d: %s", i, t)
	}
	return "STRUCT<" + strings.Join(parts, ", ") + ">", nil
})

// to_csv(struct): the fields as one CSV line, NULL as empty.
func bindToCSV(args []Arg) (*Bound, error) {
	if _, ok := types.Normalize(args[0].Type).(*arrow.StructType); !ok {
		return nil, fmt.Errorf("function to_csv expects a STRUCT, got %s", sqlName(args[0].Type))
	}
	return rowFn("to_csv", types.String, ps(pAny, pAny), func(v []any) (any, error) {
		sv, ok := v[0].(types.StructValue)
		if !ok {
			return nil, fmt.Errorf("expects a STRUCT")
		}
		var b strings.Builder
		w := csv.NewWriter(&b)
		rec := make([]string, len(sv.Values))
		for i, x := range sv.Values {
			if x != nil {
				rec[i] = fmt.Sprint(x)
			}
		}
		if err := w.Write(rec); err != nil {
			return nil, err
		}
		w.Flush()
		return strings.TrimSuffix(b.String(), "\n"), nil
	})(args)
}
