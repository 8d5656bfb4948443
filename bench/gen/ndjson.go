package gen

import "strconv"

// appendNDJSON writes one row as a JSON object and a newline, with the
// columns in schema order.
func appendNDJSON(b []byte, row *Row, ts *tsFormatter) []byte {
	b = append(b, `{"@timestamp":"`...)
	b = ts.appendTS(b, row.TimestampMs)
	b = append(b, `","clientip":`...)
	b = appendJSONString(b, row.ClientIP)
	b = append(b, `,"method":`...)
	b = appendJSONString(b, row.Method)
	b = append(b, `,"path":`...)
	b = appendJSONString(b, row.Path)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(row.Status), 10)
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, row.Bytes, 10)
	b = append(b, `,"latency_ms":`...)
	b = appendLatency(b, row.LatencyMs)
	b = append(b, `,"user_agent":`...)
	b = appendJSONString(b, row.UserAgent)
	b = append(b, `,"geo":{"country":`...)
	b = appendJSONString(b, row.Country)
	b = append(b, `,"city":`...)
	b = appendJSONString(b, row.City)
	b = append(b, `},"tags":[`...)
	for i, t := range row.Tags {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, t)
	}
	return append(b, "]}\n"...)
}

// appendJSONString quotes s. The pools hold no characters that need
// escaping, so the loop is a guard for future pool entries rather than a
// hot path.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		default:
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
