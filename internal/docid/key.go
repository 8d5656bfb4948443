// Package docid names documents in the search sinks (OpenSearch, the
// local index): every id a sink gives a document, from id columns,
// GROUP BY keys, window keys, an id_expression or a row's content, is
// made here, so that one encoding, proven injective once, serves them all.
package docid

import "strings"

// Part is one value of a key: Null, or the value's text (Text).
type Part struct {
	Null bool
	Text string
}

// Tokens no value's encoding can be: a value's encoding starts with a
// backslash only when the value does, and then with two.
const (
	nullToken  = `\N` // a NULL part (PostgreSQL COPY's spelling)
	emptyToken = `\E` // a one-part key whose value is the empty string
)

// Key encodes a key of a fixed number of parts (a table's id columns, a
// view's GROUP BY keys) as a document id. The encoding is injective for
// keys of one arity, which is all a sink ever compares:
//
//   - one part: its text as it is (so `id 'name'` names a document by
//     the value, as OpenSearch users expect), except that a NULL is `\N`,
//     the empty string `\E` (OpenSearch refuses an empty id), and a text
//     starting with a backslash gets one more in front;
//   - several parts: each part's text with `\` written `\\` and `|`
//     written `\|`, a NULL part `\N`, joined by `|`. An unescaped `|`
//     then only ever separates parts, and `\N` is never a value's text.
//
// Keys without a `|`, a backslash or a NULL encode as they always did
// (values joined by `|`), so their documents keep their ids. The id is
// the encoding itself, not a hash of it: no collisions at all, and
// readable ids; a key longer than OpenSearch's 512 bytes is refused by
// the cluster (a dead letter), as it always was.
func Key(parts []Part) string {
	if len(parts) == 1 {
		return single(parts[0])
	}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('|')
		}
		if p.Null {
			b.WriteString(nullToken)
			continue
		}
		escape(&b, p.Text)
	}
	return b.String()
}

func single(p Part) string {
	switch {
	case p.Null:
		return nullToken
	case p.Text == "":
		return emptyToken
	case p.Text[0] == '\\':
		return `\` + p.Text
	}
	return p.Text
}

func escape(b *strings.Builder, s string) {
	if !strings.ContainsAny(s, `\|`) {
		b.WriteString(s)
		return
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\\' || c == '|' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
}
