package flint

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"sluice/internal/connector/registry"
	"sluice/internal/job"
	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// idColumn is the column a materialized view gets when its id_expression
// is an expression rather than a column list: the sink's document id.
const idColumn = "__id"

// idExpression reads Flint's id_expression: a column list (a, b) keeps
// today's meaning (the id is made of those columns); any other SQL
// expression is computed per row into the view's __id column. It returns
// the sink's id option and the query to run.
func idExpression(id string, q *sql.Query) (string, *sql.Query, error) {
	if isColumnList(id) {
		return id, q, nil
	}
	e, err := sql.ParseExpr(id)
	if err != nil {
		return "", nil, fmt.Errorf("id_expression: %w", err)
	}
	return idColumn, withIDColumn(q, e), nil
}

// withIDColumn is SELECT *, id AS __id FROM (q) AS __mv: the view's rows
// and each one's document id.
func withIDColumn(q *sql.Query, id sql.Expr) *sql.Query {
	return sql.NewQuery(sql.NewSelect(sql.SubqueryFrom(q, "__mv"), sql.AllColumns(), sql.Alias(id, idColumn)))
}

// isColumnList reports whether s is name[, name...].
func isColumnList(s string) bool {
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			return false
		}
		for _, r := range p {
			if !(r == '_' || r == '@' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return false
			}
		}
	}
	return true
}

// extraOptions reads Flint's extra_options: a JSON object whose keys are
// source table names (qualified or not) or "sink", each holding a JSON
// object (or a string of one) of options. Source options are a stream's
// own (maxFilesPerTrigger and the like, Spark's camelCase taken as
// Sluice's snake_case); they apply to the view's stream. sink options go
// to the view's sink table.
func (f *Flint) extraOptions(ctx context.Context, text string, q *sql.Query) (source, sink map[string]string, err error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return nil, nil, usererr.Errorf(usererr.Invalid, "extra_options: want a JSON object of {\"table\": {\"option\": \"value\"}}: %v", err)
	}
	source, sink = map[string]string{}, map[string]string{}
	read := map[string]bool{}
	for n := range sqlTableNames(q) {
		if st, err := f.h.Qualify(ctx, n); err == nil {
			read[strings.ToLower(st)] = true
		}
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		opts, err := jsonOptionMap(raw[k])
		if err != nil {
			return nil, nil, fmt.Errorf("extra_options %q: %w", k, err)
		}
		if strings.EqualFold(k, "sink") {
			for ok, v := range opts {
				sink[snakeCase(ok)] = v
			}
			continue
		}
		stored, err := f.h.Qualify(ctx, k)
		if err != nil {
			return nil, nil, fmt.Errorf("extra_options %q: %w", k, err)
		}
		if !read[strings.ToLower(stored)] {
			return nil, nil, fmt.Errorf("extra_options %q: the view's query does not read that table", k)
		}
		m := map[string]string{}
		for ok, v := range opts {
			m[snakeCase(ok)] = v
		}
		if err := registry.CheckKeys(m, "in extra_options for a stream's source", registry.StreamOptionKeys()); err != nil {
			return nil, nil, fmt.Errorf("extra_options %q: %w", k, err)
		}
		for mk, v := range m {
			source[mk] = v
		}
	}
	return source, sink, nil
}

// jsonOptionMap reads {"k": "v", "n": 1} (or a string holding that
// object) as option text values.
func jsonOptionMap(raw json.RawMessage) (map[string]string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, usererr.Errorf(usererr.Invalid, "want a JSON object of options: %v", err)
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		switch t := v.(type) {
		case string:
			out[k] = t
		case nil:
			return nil, fmt.Errorf("option %s: null is not a value", k)
		default:
			b, _ := json.Marshal(t)
			out[k] = string(b)
		}
	}
	return out, nil
}

// snakeCase turns Spark's maxFilesPerTrigger into max_files_per_trigger;
// snake_case stays as it is.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 && s[i-1] != '_' {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sqlTableNames lists, lower-cased and as written, the catalog tables a
// query's FROM clauses name (CTE names included: harmless here).
func sqlTableNames(q *sql.Query) map[string]bool {
	out := map[string]bool{}
	var body func(sql.QueryBody)
	var from func(sql.TableExpr)
	query := func(q *sql.Query) {
		for _, c := range q.With {
			body(c.Query)
		}
		body(q.Body)
	}
	body = func(b sql.QueryBody) {
		switch t := b.(type) {
		case *sql.Query:
			query(t)
		case *sql.Select:
			if t.From != nil {
				from(t.From)
			}
		case *sql.SetOp:
			body(t.L)
			body(t.R)
		}
	}
	from = func(t sql.TableExpr) {
		switch te := t.(type) {
		case *sql.TableName:
			out[strings.ToLower(te.Name)] = true
		case *sql.SubqueryTable:
			query(te.Query)
		case *sql.Join:
			from(te.L)
			from(te.R)
		case *sql.LateralView:
			from(te.Input)
		case *sql.Pivot:
			from(te.From)
		case *sql.Unpivot:
			from(te.From)
		}
	}
	query(q)
	return out
}

// checkRefreshModes checks Flint's incremental_refresh and
// scheduler_mode. REFRESH is always an incremental catch-up from the
// view's checkpoint, so incremental_refresh = true is what Sluice does
// and false (Flint's full refresh) reads the same rows the first time;
// both are recorded. As in Flint, incremental_refresh needs auto_refresh
// off.
func checkRefreshModes(opts map[string]string, auto bool) error {
	inc, err := job.ParseBool(opts["incremental_refresh"], false)
	if err != nil {
		return fmt.Errorf("incremental_refresh: %w", err)
	}
	if inc && auto {
		return fmt.Errorf("incremental_refresh = true cannot be combined with auto_refresh = true")
	}
	switch strings.ToLower(opts["scheduler_mode"]) {
	case "", "internal", "external":
	default:
		return fmt.Errorf("scheduler_mode: %q is not internal or external", opts["scheduler_mode"])
	}
	return nil
}

// readsWatermarkedTable reports whether a table the query reads declares
// a WATERMARK.
func (f *Flint) readsWatermarkedTable(ctx context.Context, q *sql.Query) bool {
	for n := range sqlTableNames(q) {
		st, err := f.h.Qualify(ctx, n)
		if err != nil {
			continue
		}
		if t, err := f.h.Catalog().Table(st); err == nil && t.Watermark != nil {
			return true
		}
	}
	return false
}
