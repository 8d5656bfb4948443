package opensearch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/valyala/fastjson"

	"sluice/internal/connector"
	"sluice/internal/types"
)

// Field metadata an inferred schema carries, so the source knows a
// column's mapping without asking the cluster again: text fields are not
// termable, and their keyword sub-field is.
const (
	metaText        = "opensearch.text"         // "true": mapped as text
	metaKeyword     = "opensearch.keyword"      // the keyword sub-field's name
	metaIgnoreAbove = "opensearch.ignore_above" // the sub-field's ignore_above
)

// Infer reads a table's schema from its index mapping (every index a date
// pattern names, merged): keyword and text to STRING, the numeric types,
// date to TIMESTAMP, object to STRUCT, nested to ARRAY<STRUCT>. It returns
// connector.ErrNoSchema when no index exists yet, or when the indices map
// no field, so the table takes its columns from what is written.
func Infer(ctx context.Context, spec connector.TableSpec) (*arrow.Schema, []string, error) {
	o, err := ParseOptions(spec.Options)
	if err != nil {
		return nil, nil, err
	}
	cl, err := newClient(ctx, o)
	if err != nil {
		return nil, nil, err
	}
	defer cl.Close()
	target := patternGlob.ReplaceAllString(o.Index, "*")
	var body []byte
	err = withRetry(ctx, o, "reading the mapping of "+target, func() (bool, error) {
		st, b, err := cl.do(ctx, http.MethodGet, "/"+url.PathEscape(target)+"/_mapping?ignore_unavailable=true&allow_no_indices=true", nil)
		if err != nil {
			return true, err
		}
		if st == http.StatusNotFound {
			return false, nil
		}
		if st >= 300 {
			return retryable(st), statusErr("reading the mapping", st, b)
		}
		body = b
		return false, nil
	})
	if err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, connector.ErrNoSchema
	}
	fields, err := mappingFields(body)
	if err != nil {
		return nil, nil, fmt.Errorf("index %s: %w", target, err)
	}
	if len(fields) == 0 {
		return nil, nil, connector.ErrNoSchema
	}
	return arrow.NewSchema(fields, nil), nil, nil
}

// mappingFields turns a GET _mapping answer into columns: the top-level
// properties of every index, in name order, a field mapped differently by
// two indices being an error naming both types.
func mappingFields(body []byte) ([]arrow.Field, error) {
	v, err := fastjson.ParseBytes(body)
	if err != nil {
		return nil, fmt.Errorf("reading the mapping: %w", err)
	}
	idx, err := v.Object()
	if err != nil {
		return nil, fmt.Errorf("reading the mapping: %w", err)
	}
	byName := map[string]arrow.Field{}
	var firstErr error
	idx.Visit(func(index []byte, m *fastjson.Value) {
		props := m.Get("mappings", "properties")
		if props == nil {
			return
		}
		for _, f := range propertyFields(props) {
			if had, ok := byName[f.Name]; ok {
				if !arrow.TypeEqual(had.Type, f.Type) && firstErr == nil {
					firstErr = fmt.Errorf("field %s is %s in one index and %s in %s", f.Name,
						types.SQLName(had.Type), types.SQLName(f.Type), index)
				}
				continue
			}
			byName[f.Name] = f
		}
	})
	if firstErr != nil {
		return nil, firstErr
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]arrow.Field, len(names))
	for i, n := range names {
		out[i] = byName[n]
	}
	return out, nil
}

// propertyFields maps one properties object; fields of types Sluice has
// no column type for (geo shapes, aliases, disabled objects) are left
// out rather than read wrongly.
func propertyFields(props *fastjson.Value) []arrow.Field {
	o, err := props.Object()
	if err != nil {
		return nil
	}
	var out []arrow.Field
	o.Visit(func(k []byte, m *fastjson.Value) {
		if f, ok := propertyField(string(k), m); ok {
			out = append(out, f)
		}
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func propertyField(name string, m *fastjson.Value) (arrow.Field, bool) {
	typ := string(m.GetStringBytes("type"))
	f := arrow.Field{Name: name, Nullable: true}
	switch typ {
	case "keyword", "constant_keyword", "wildcard", "ip", "version":
		f.Type = types.String
	case "text", "match_only_text":
		f.Type = types.String
		meta := map[string]string{metaText: "true"}
		if sub, above, ok := keywordSubField(m); ok {
			meta[metaKeyword] = sub
			if above > 0 {
				meta[metaIgnoreAbove] = strconv.Itoa(above)
			}
		}
		f.Metadata = arrow.MetadataFrom(meta)
	case "long", "integer", "short", "byte":
		f.Type = types.BigInt
		if typ != "long" {
			f.Type = types.Int
		}
	case "unsigned_long":
		f.Type = types.Decimal(20, 0)
	case "double", "float", "half_float", "scaled_float":
		f.Type = types.Double
	case "boolean":
		f.Type = types.Boolean
	case "date", "date_nanos":
		f.Type = types.Timestamp
	case "binary":
		f.Type = arrow.BinaryTypes.Binary
	case "nested", "object", "":
		if m.GetBool("enabled") == false && m.Exists("enabled") {
			return f, false
		}
		props := m.Get("properties")
		if props == nil {
			return f, false
		}
		sub := propertyFields(props)
		if len(sub) == 0 {
			return f, false
		}
		f.Type = types.Struct(sub...)
		if typ == "nested" {
			f.Type = types.Array(f.Type)
		}
	default:
		return f, false
	}
	return f, true
}

// keywordSubField finds a text field's keyword multi-field (dynamic
// mapping's "keyword", ignore_above 256), through which equality can be
// pushed down as a term query.
func keywordSubField(m *fastjson.Value) (string, int, bool) {
	fs := m.Get("fields")
	if fs == nil {
		return "", 0, false
	}
	o, err := fs.Object()
	if err != nil {
		return "", 0, false
	}
	var name string
	var above int
	o.Visit(func(k []byte, v *fastjson.Value) {
		if name == "" && string(v.GetStringBytes("type")) == "keyword" {
			name, above = string(k), v.GetInt("ignore_above")
		}
	})
	return name, above, name != ""
}

// keywordField is a text field's keyword sub-field: values longer than
// ignoreAbove characters (0: no limit) are not in it.
type keywordField struct {
	name        string
	ignoreAbove int
}

// fromMetadata adds what an inferred schema says about text fields to the
// options the user gave.
func (o *Options) fromMetadata(schema *arrow.Schema) {
	for _, f := range schema.Fields() {
		if !f.HasMetadata() {
			continue
		}
		if v, ok := f.Metadata.GetValue(metaText); !ok || v != "true" {
			continue
		}
		if o.TextFields == nil {
			o.TextFields = map[string]bool{}
		}
		o.TextFields[f.Name] = true
		if sub, ok := f.Metadata.GetValue(metaKeyword); ok {
			above, _ := f.Metadata.GetValue(metaIgnoreAbove)
			n, _ := strconv.Atoi(above)
			if o.Keyword == nil {
				o.Keyword = map[string]keywordField{}
			}
			o.Keyword[f.Name] = keywordField{name: sub, ignoreAbove: n}
		}
	}
}

// addMissingFields maps, in an index that exists, the table's columns its
// mapping does not have yet, with the types Sluice maps them to: left to
// dynamic mapping, a STRING would become a text field, where the term
// queries Sluice pushes down would not mean equality. Fields already
// mapped are never changed. It reports (retry, err) for withRetry.
func addMissingFields(ctx context.Context, cl *client, o Options, name string, schema *arrow.Schema) (bool, error) {
	if o.IndexMappings != "" || schema == nil || schema.NumFields() == 0 {
		return false, nil
	}
	path := "/" + url.PathEscape(name) + "/_mapping"
	st, body, err := cl.do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return true, err
	}
	if st >= 300 {
		return retryable(st), statusErr("reading the mapping", st, body)
	}
	v, err := fastjson.ParseBytes(body)
	if err != nil {
		return false, fmt.Errorf("reading the mapping of %s: %w", name, err)
	}
	mapped := map[string]bool{}
	if idx, err := v.Object(); err == nil {
		idx.Visit(func(_ []byte, m *fastjson.Value) {
			// An index made without mappings has no properties:
			// Object of the missing value would dereference nil.
			if pv := m.Get("mappings", "properties"); pv == nil {
				return
			} else if props, err := pv.Object(); err == nil && props != nil {
				props.Visit(func(k []byte, _ *fastjson.Value) { mapped[string(k)] = true })
			}
		})
	}
	var missing []arrow.Field
	for _, f := range schema.Fields() {
		if !mapped[f.Name] {
			missing = append(missing, f)
		}
	}
	if len(missing) == 0 {
		return false, nil
	}
	m := Mappings(arrow.NewSchema(missing, nil), o.TextFields)
	for _, p := range m["properties"].(map[string]any) {
		// The index was made elsewhere, without Sluice's analyzer.
		delete(p.(map[string]any), "analyzer")
	}
	put, _ := json.Marshal(m)
	st, body, err = cl.do(ctx, http.MethodPut, path, put)
	if err != nil {
		return true, err
	}
	if st >= 300 {
		return retryable(st), statusErr("adding fields to the mapping", st, body)
	}
	return false, nil
}
