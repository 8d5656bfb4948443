package gen

import (
	"strconv"
	"strings"
)

// CSVHeader names the CSV columns: the NDJSON columns with geo flattened
// and tags joined by ';'.
const CSVHeader = "@timestamp,clientip,method,path,status,bytes,latency_ms,user_agent,geo_country,geo_city,tags\n"

// appendCSV writes one row as an RFC 4180 record.
func appendCSV(b []byte, row *Row, ts *tsFormatter) []byte {
	b = ts.appendTS(b, row.TimestampMs)
	b = append(b, ',')
	b = appendCSVField(b, row.ClientIP)
	b = append(b, ',')
	b = appendCSVField(b, row.Method)
	b = append(b, ',')
	b = appendCSVField(b, row.Path)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(row.Status), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, row.Bytes, 10)
	b = append(b, ',')
	b = appendLatency(b, row.LatencyMs)
	b = append(b, ',')
	b = appendCSVField(b, row.UserAgent)
	b = append(b, ',')
	b = appendCSVField(b, row.Country)
	b = append(b, ',')
	b = appendCSVField(b, row.City)
	b = append(b, ',')
	for i, t := range row.Tags {
		if i > 0 {
			b = append(b, ';')
		}
		b = append(b, t...)
	}
	return append(b, '\n')
}

// appendCSVField quotes a field only when it must be: user agents carry
// commas ("KHTML, like Gecko"), most other values do not.
func appendCSVField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ",\"\r\n\\") {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}
