package job

import (
	"strings"
)

// Markdown is kind's option table as docs/sql.md shows it: one row per
// option, in Options' order. The docs are printed from here, never
// written by hand, so they cannot drift from what statements accept.
func Markdown(kind Kind) string {
	var b strings.Builder
	b.WriteString("| WITH option | type | default | meaning |\n|---|---|---|---|\n")
	for _, o := range Options {
		if o.For&kind == 0 {
			continue
		}
		typ := o.Type.String()
		if o.Type == Enum {
			typ = "`" + strings.Join(o.Values, "`, `") + "`"
		}
		def := ""
		if o.Default != "" {
			def = "`" + o.Default + "`"
		}
		b.WriteString("| `" + o.Key + "` | " + typ + " | " + def + " | " + strings.ReplaceAll(o.Doc, "|", "\\|") + " |\n")
	}
	return b.String()
}

// docMarker opens kind's generated table in docs/sql.md; docEnd closes it.
func docMarker(kind Kind) string {
	return "<!-- options of a " + kind.String() + ": printed by job.Markdown -->\n"
}

const docEnd = "<!-- end of options -->\n"

// UpdateDoc returns doc with every kind's table between its markers
// printed afresh; kinds without markers are left out.
func UpdateDoc(doc string) string {
	for _, k := range Kinds {
		start := strings.Index(doc, docMarker(k))
		if start < 0 {
			continue
		}
		body := start + len(docMarker(k))
		end := strings.Index(doc[body:], docEnd)
		if end < 0 {
			continue
		}
		doc = doc[:body] + Markdown(k) + doc[body+end:]
	}
	return doc
}
