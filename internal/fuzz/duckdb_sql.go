package fuzz

import (
	"fmt"
	"strings"
)

// duckTypes are the DuckDB types of the generator's Spark types.
var duckTypes = map[Type]string{
	BigInt: "BIGINT", Int: "INTEGER", Double: "DOUBLE", String: "VARCHAR",
	Boolean: "BOOLEAN", Date: "DATE", Timestamp: "TIMESTAMP",
}

// duckView is the DuckDB statement that makes t's files (the ones Sluice
// wrote) a view named like the table, read with an explicit schema so no
// type is inferred. Timestamps are read as TIMESTAMPTZ (the files hold
// instants) and cast to TIMESTAMP under the server's UTC zone, Spark's
// TIMESTAMP in a UTC session.
func duckView(t *Table) string {
	part := t.Part >= 0
	glob := duckString(t.Location + "**/*." + t.Format)
	hive := fmt.Sprintf("hive_partitioning = %t, hive_types_autocast = false", part)
	var src string
	switch t.Format {
	case "parquet":
		src = fmt.Sprintf("read_parquet(%s, %s)", glob, hive)
	case "json":
		var cols []string
		for i, c := range t.Cols {
			if i == t.Part {
				continue // from the folder names, as text
			}
			ty := duckTypes[c.Type]
			if c.Type == Timestamp {
				ty = "TIMESTAMPTZ"
			}
			cols = append(cols, fmt.Sprintf("%s: '%s'", duckString(c.Name), ty))
		}
		// records = true: with one column DuckDB would otherwise read
		// each line as that column's value ({} for an all-NULL row).
		src = fmt.Sprintf("read_json(%s, format = 'newline_delimited', records = true, columns = {%s}, %s)", glob, strings.Join(cols, ", "), hive)
	case "csv":
		// All text, cast below: allow_quoted_nulls = false keeps "" the
		// empty string (an unquoted empty field is NULL), as Sluice's
		// reader does. The dialect is given, not sniffed: sniffed from a
		// file without quotes, DuckDB reads the quotes of the next file
		// as data.
		src = fmt.Sprintf(`read_csv(%s, header = true, delim = ',', quote = '"', escape = '"', all_varchar = true, allow_quoted_nulls = false, %s)`, glob, hive)
	}
	var sel []string
	for i, c := range t.Cols {
		x := c.Name
		switch {
		case t.Format == "csv" && c.Type == String && i != t.Part:
			// Sluice's CSV writer escapes the escape character (the
			// backslash, Spark's default) by doubling it; DuckDB's
			// reader has one escape character, the quote.
			x = fmt.Sprintf(`replace(%s, '\\', '\')`, x)
		case c.Type == Timestamp:
			x = fmt.Sprintf("CAST(%s AS TIMESTAMPTZ)", x)
		}
		sel = append(sel, fmt.Sprintf("CAST(%s AS %s) AS %s", x, duckTypes[c.Type], c.Name))
	}
	return fmt.Sprintf("CREATE OR REPLACE VIEW %s AS SELECT %s FROM %s", t.Name, strings.Join(sel, ", "), src)
}

// duckString quotes s as a DuckDB string literal.
func duckString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// toDuck translates a generated query from Sluice's (Spark's) SQL to
// DuckDB's. The generator keeps to syntax both share (see exprGen.duck),
// so only two things differ:
//   - string literals: Spark reads backslash escapes ('a\nb' is a line
//     break, 'it\'s' a quote) and joins adjacent literals ('it”s' is
//     its), DuckDB's are plain (” doubling only); each literal is
//     decoded as Sluice's lexer does and written in DuckDB's form;
//   - a <=> b is spelled a IS NOT DISTINCT FROM b (the generator puts
//     its operands in parentheses or makes them atoms, so precedence is
//     kept);
//   - isnan(x): Spark's is false for NULL, DuckDB's NULL, so it becomes
//     coalesce(isnan(x), false).
func toDuck(q string) string {
	var b strings.Builder
	// depth counts open parentheses; closeAt are the depths whose ")"
	// closes an isnan( and so also its coalesce.
	depth := 0
	var closeAt []int
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'':
			var lit strings.Builder
			i++
			for ; i < len(q); i++ {
				if q[i] == '\'' {
					// Adjacent literals are one ('it' 's' is its).
					j := i + 1
					for j < len(q) && q[j] == ' ' {
						j++
					}
					if j < len(q) && q[j] == '\'' {
						i = j
						continue
					}
					break
				}
				if q[i] == '\\' && i+1 < len(q) {
					i++
					switch q[i] {
					case 'n':
						lit.WriteByte('\n')
					case 't':
						lit.WriteByte('\t')
					case 'r':
						lit.WriteByte('\r')
					case '%', '_':
						// LIKE escapes keep their backslash (Spark's rule).
						lit.WriteByte('\\')
						lit.WriteByte(q[i])
					default:
						// \\, \', \" and any other escaped character
						// stand for the character (Spark's rule).
						lit.WriteByte(q[i])
					}
					continue
				}
				lit.WriteByte(q[i])
			}
			b.WriteString(duckString(lit.String()))
		case strings.HasPrefix(q[i:], "isnan(") && (i == 0 || !isIdent(q[i-1])):
			b.WriteString("coalesce(isnan(")
			depth++
			closeAt = append(closeAt, depth)
			i += len("isnan(") - 1
		case c == '(':
			depth++
			b.WriteByte(c)
		case c == ')':
			b.WriteByte(c)
			if n := len(closeAt); n > 0 && closeAt[n-1] == depth {
				b.WriteString(", false)")
				closeAt = closeAt[:n-1]
			}
			depth--
		case strings.HasPrefix(q[i:], "<=>"):
			b.WriteString(" IS NOT DISTINCT FROM ")
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
