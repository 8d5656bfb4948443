package index

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/mapping"
)

// SourceField holds each document's row as JSON (stored, not indexed).
const SourceField = "_source"

// Mapping follows the OpenSearch connector's rules: STRING is a keyword
// (exact terms), or text with the standard analyzer for text fields;
// numbers are numeric, BOOLEAN boolean, TIMESTAMP and DATE datetime,
// STRUCT a sub-document, ARRAY its element's mapping. Other fields are
// not indexed; everything is kept in _source.
func Mapping(schema *arrow.Schema, text map[string]bool) mapping.IndexMapping {
	m := bleve.NewIndexMapping()
	doc := bleve.NewDocumentStaticMapping()
	for _, f := range schema.Fields() {
		addField(doc, f.Name, f.Type, text[f.Name])
	}
	src := bleve.NewTextFieldMapping()
	src.Index, src.Store, src.IncludeInAll, src.IncludeTermVectors, src.DocValues = false, true, false, false, false
	src.Analyzer = keyword.Name
	doc.AddFieldMappingsAt(SourceField, src)
	m.DefaultMapping = doc
	m.DefaultAnalyzer = standard.Name
	m.StoreDynamic, m.IndexDynamic, m.DocValuesDynamic = false, false, false
	return m
}

func addField(doc *mapping.DocumentMapping, name string, t arrow.DataType, text bool) {
	var fm *mapping.FieldMapping
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING:
		if text {
			fm = bleve.NewTextFieldMapping()
			fm.Analyzer = standard.Name
			fm.IncludeTermVectors = true
		} else {
			fm = bleve.NewKeywordFieldMapping()
		}
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32,
		arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128:
		fm = bleve.NewNumericFieldMapping()
	case arrow.BOOL:
		fm = bleve.NewBooleanFieldMapping()
	case arrow.TIMESTAMP, arrow.DATE32:
		fm = bleve.NewDateTimeFieldMapping()
	case arrow.STRUCT:
		sub := bleve.NewDocumentStaticMapping()
		for _, f := range t.(*arrow.StructType).Fields() {
			addField(sub, f.Name, f.Type, false)
		}
		doc.AddSubDocumentMapping(name, sub)
		return
	case arrow.LIST, arrow.LARGE_LIST:
		addField(doc, name, t.(arrow.ListLikeType).Elem(), text)
		return
	default:
		return
	}
	fm.Store, fm.IncludeInAll, fm.DocValues = false, false, t.ID() != arrow.STRING || !text
	doc.AddFieldMappingsAt(name, fm)
}
