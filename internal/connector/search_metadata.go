package connector

import "bytes"

// The hidden metadata columns of a search table (USING index,
// opensearch), as OpenSearch's: each document's _id, and the name of the
// table or index it is in (_index, which tells apart the tables of an
// index pattern).
const (
	IDColumn    = "_id"
	IndexColumn = "_index"
)

// SearchMetadataColumns is IDColumn and IndexColumn, each unless the
// table has a column of that name (has says).
func SearchMetadataColumns(has func(name string) bool) []string {
	var out []string
	for _, c := range []string{IDColumn, IndexColumn} {
		if !has(c) {
			out = append(out, c)
		}
	}
	return out
}

// MetaField is a hidden metadata column a search source adds to each
// document (its _id, its _index): the name and its JSON-encoded value.
type MetaField struct {
	Name  string
	Value []byte
}

// JoinMetadata writes doc, a JSON object, to buf with meta as its first
// fields, so a JSON decoder reads them as any other column.
func JoinMetadata(buf *bytes.Buffer, doc []byte, meta []MetaField) {
	if len(meta) == 0 {
		buf.Write(doc)
		return
	}
	buf.WriteByte('{')
	for i, m := range meta {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteByte('"')
		buf.WriteString(m.Name)
		buf.WriteString(`":`)
		buf.Write(m.Value)
	}
	if rest := bytes.TrimSpace(doc); len(rest) > 2 {
		buf.WriteByte(',')
		buf.Write(rest[1:])
		return
	}
	buf.WriteByte('}')
}
