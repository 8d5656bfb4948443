package format

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"sluice/internal/types"
)

// Infer reads up to sampleRows rows (all rows when sampleRows <= 0) across
// files, in order, and returns a schema that holds them, the way Spark
// infers one:
//
//   - JSON: integers are BIGINT, other numbers DOUBLE (integers and
//     doubles together widen to DOUBLE); objects are STRUCTs with fields in
//     first-seen order, merged across rows; arrays are ARRAYs of the merged
//     element type; a string column is TIMESTAMP only when every sampled
//     value parses as ISO-8601; mixed types and all-NULL columns are STRING.
//   - CSV: names from the header (else _c0, _c1, ...); each column the
//     narrowest of INT, BIGINT, DOUBLE, BOOLEAN, TIMESTAMP that parses
//     every sampled non-null value, else STRING.
//   - Parquet: the file schemas, normalized to the SQL types and merged.
//
// Files that cannot be read are errors naming the file; malformed rows
// are skipped.
func Infer(ctx context.Context, files []File, opts Options, sampleRows int) (*arrow.Schema, error) {
	opts = opts.withDefaults()
	if len(files) == 0 {
		return nil, errors.New("inferring schema: no files")
	}
	f := normalizeFormat(opts.Format)
	if f == "" {
		f = FormatFromName(files[0].Name)
	}
	if sampleRows <= 0 {
		sampleRows = math.MaxInt
	}
	switch f {
	case "json":
		return inferJSON(ctx, files, opts, sampleRows)
	case "csv":
		return inferCSV(ctx, files, opts, sampleRows)
	case "parquet":
		return inferParquet(ctx, files)
	}
	return nil, fmt.Errorf("inferring schema: unknown format %q (known: csv, json, parquet)", opts.Format)
}

// itype is a type being inferred. Kinds are ordered so that widening
// numbers is a max.
type itype struct {
	kind   ikind
	allTS  bool // string kind: every value parsed as a timestamp
	names  []string
	fields map[string]*itype
	elem   *itype
}

type ikind uint8

const (
	iNull ikind = iota
	iBool
	iInt
	iDouble
	iString
	iStruct
	iArray
)

func (t *itype) merge(o *itype) *itype {
	switch {
	case o == nil || o.kind == iNull:
		return t
	case t == nil || t.kind == iNull:
		return o
	case t.kind == o.kind:
		switch t.kind {
		case iString:
			t.allTS = t.allTS && o.allTS
		case iStruct:
			for _, n := range o.names {
				if cur, ok := t.fields[n]; ok {
					t.fields[n] = cur.merge(o.fields[n])
				} else {
					t.names = append(t.names, n)
					t.fields[n] = o.fields[n]
				}
			}
		case iArray:
			t.elem = t.elem.merge(o.elem)
		}
		return t
	case (t.kind == iInt || t.kind == iDouble) && (o.kind == iInt || o.kind == iDouble):
		return &itype{kind: iDouble}
	}
	return &itype{kind: iString}
}

func (t *itype) arrow() arrow.DataType {
	if t == nil {
		return types.String
	}
	switch t.kind {
	case iBool:
		return types.Boolean
	case iInt:
		return types.BigInt
	case iDouble:
		return types.Double
	case iString:
		if t.allTS {
			return types.Timestamp
		}
		return types.String
	case iStruct:
		if len(t.names) == 0 {
			return types.String // Spark drops empty structs; the raw text is kept instead
		}
		fs := make([]arrow.Field, len(t.names))
		for i, n := range t.names {
			fs[i] = arrow.Field{Name: n, Type: t.fields[n].arrow(), Nullable: true}
		}
		return types.Struct(fs...)
	case iArray:
		return types.Array(t.elem.arrow())
	}
	return types.String
}

// inferValue types one validated JSON value. Recursion is bounded by
// validate's depth limit.
func inferValue(v []byte) *itype {
	switch v[0] {
	case 'n':
		return &itype{kind: iNull}
	case 't', 'f':
		return &itype{kind: iBool}
	case '"':
		_, ok := types.ParseTimestamp(string(unescape(nil, v)))
		return &itype{kind: iString, allTS: ok}
	case '{':
		t := &itype{kind: iStruct, fields: map[string]*itype{}}
		it := newObjIter(v)
		for {
			k, val, ok := it.next()
			if !ok {
				return t
			}
			name := validUTF8(unescape(nil, k))
			vt := inferValue(val)
			if cur, seen := t.fields[name]; seen {
				t.fields[name] = cur.merge(vt)
			} else {
				t.names = append(t.names, name)
				t.fields[name] = vt
			}
		}
	case '[':
		t := &itype{kind: iArray}
		it := newArrIter(v)
		for {
			el, ok := it.next()
			if !ok {
				return t
			}
			t.elem = t.elem.merge(inferValue(el))
		}
	}
	if _, ok := parseInt(v); ok && !strings.ContainsAny(string(v), ".eE") {
		return &itype{kind: iInt}
	}
	return &itype{kind: iDouble}
}

func inferJSON(ctx context.Context, files []File, opts Options, limit int) (*arrow.Schema, error) {
	root := &itype{kind: iStruct, fields: map[string]*itype{}}
	rows := 0
	var stack []byte
	for _, f := range files {
		if rows >= limit {
			break
		}
		// A reader with no columns does the line splitting, whole-file
		// arrays and decompression; records are typed here.
		r, err := newJSONReader(ctx, f, arrow.NewSchema(nil, nil), opts)
		if err != nil {
			return nil, fmt.Errorf("inferring schema: %w", err)
		}
		err = func() error {
			defer r.Close()
			for rows < limit {
				if err := ctx.Err(); err != nil {
					return err
				}
				var rec []byte
				var err error
				if r.whole != nil {
					rec, _, err = r.whole.next()
				} else {
					rec, _, err = r.lines.next()
					if err == nil && r.lines.tooLong {
						continue
					}
				}
				if err == io.EOF {
					return nil
				}
				if err != nil {
					return r.readErr(err)
				}
				i := skipWS(rec, 0)
				if i == len(rec) {
					continue
				}
				var end int
				end, stack, err = validate(rec, i, stack)
				if err != nil || skipWS(rec, end) != len(rec) {
					continue // malformed rows do not shape the schema
				}
				t := inferValue(rec[i:end])
				switch t.kind {
				case iStruct:
					root = root.merge(t)
					rows++
				case iArray: // a line (or file) holding an array of rows
					it := newArrIter(rec[i:end])
					for el, ok := it.next(); ok && rows < limit; el, ok = it.next() {
						if et := inferValue(el); et.kind == iStruct {
							root = root.merge(et)
							rows++
						}
					}
				}
			}
			return nil
		}()
		if err != nil {
			return nil, fmt.Errorf("inferring schema: %w", err)
		}
	}
	fs := make([]arrow.Field, len(root.names))
	for i, n := range root.names {
		fs[i] = arrow.Field{Name: n, Type: root.fields[n].arrow(), Nullable: true}
	}
	return arrow.NewSchema(fs, nil), nil
}

// csvCol tracks which types still fit every value seen in a CSV column.
type csvCol struct {
	seen                                     bool
	isInt32, isInt64, isDouble, isBool, isTS bool
}

func inferCSV(ctx context.Context, files []File, opts Options, limit int) (*arrow.Schema, error) {
	var names []string
	var cols []*csvCol
	rows := 0
	for _, f := range files {
		if rows >= limit {
			break
		}
		r, err := newCSVReader(ctx, f, arrow.NewSchema(nil, nil), opts)
		if err != nil {
			return nil, fmt.Errorf("inferring schema: %w", err)
		}
		if names == nil {
			names = r.header
		}
		err = func() error {
			defer r.Close()
			for rows < limit {
				if err := ctx.Err(); err != nil {
					return err
				}
				_, err := r.readRecord()
				if err == io.EOF {
					return nil
				}
				var bad *csvBad
				if errors.As(err, &bad) {
					continue
				}
				if err != nil {
					return r.readErr(err)
				}
				rows++
				for len(cols) < len(r.fields) {
					cols = append(cols, &csvCol{isInt32: true, isInt64: true, isDouble: true, isBool: true, isTS: true})
				}
				for i, fl := range r.fields {
					s := r.rec[fl.start:fl.end]
					if !fl.quoted && (len(strings.TrimSpace(string(s))) == 0 || opts.NullValue != "" && string(s) == opts.NullValue) {
						continue
					}
					c := cols[i]
					c.seen = true
					if c.isInt64 {
						n, ok := parseInt(s)
						ok = ok && !strings.ContainsAny(string(s), ".eE")
						c.isInt64 = ok
						c.isInt32 = c.isInt32 && ok && n >= math.MinInt32 && n <= math.MaxInt32
					}
					if c.isDouble {
						_, c.isDouble = parseFloat(s)
					}
					if c.isBool {
						_, c.isBool = parseBool(s)
					}
					if c.isTS {
						_, c.isTS = types.ParseTimestamp(string(s))
					}
				}
			}
			return nil
		}()
		if err != nil {
			return nil, fmt.Errorf("inferring schema: %w", err)
		}
	}
	n := max(len(names), len(cols))
	fs := make([]arrow.Field, n)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("_c%d", i)
		if i < len(names) && names[i] != "" {
			name = names[i]
		}
		t := types.String
		if i < len(cols) && cols[i].seen {
			c := cols[i]
			switch {
			case c.isInt32:
				t = types.Int
			case c.isInt64:
				t = types.BigInt
			case c.isDouble:
				t = types.Double
			case c.isBool:
				t = types.Boolean
			case c.isTS:
				t = types.Timestamp
			}
		}
		fs[i] = arrow.Field{Name: name, Type: t, Nullable: true}
	}
	return arrow.NewSchema(fs, nil), nil
}

func inferParquet(ctx context.Context, files []File) (*arrow.Schema, error) {
	var fields []arrow.Field
	index := map[string]int{}
	for _, f := range files {
		ra, err := openRandom(ctx, f)
		if err != nil {
			return nil, fmt.Errorf("inferring schema: reading %s: %w", f.Name, err)
		}
		pf, err := file.NewParquetReader(ra, file.WithReadProps(parquet.NewReaderProperties(memory.DefaultAllocator)))
		if err != nil {
			return nil, fmt.Errorf("inferring schema: reading %s: parquet footer: %w", f.Name, err)
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		var s *arrow.Schema
		if err == nil {
			s, err = fr.Schema()
		}
		pf.Close()
		if err != nil {
			return nil, fmt.Errorf("inferring schema: reading %s: parquet schema: %w", f.Name, err)
		}
		for _, fl := range s.Fields() {
			t := types.Normalize(fl.Type)
			if i, ok := index[fl.Name]; ok {
				if c, ok := types.Common(fields[i].Type, t); ok {
					fields[i].Type = c
				} else {
					fields[i].Type = types.String
				}
				continue
			}
			index[fl.Name] = len(fields)
			fields = append(fields, arrow.Field{Name: fl.Name, Type: t, Nullable: true})
		}
	}
	return arrow.NewSchema(fields, nil), nil
}
