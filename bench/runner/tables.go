package runner

import (
	"fmt"
	"strings"

	"sluice/bench/gen"
	"sluice/internal/sql"
)

// nestedColumns is the NDJSON and Parquet column list; declaring it keeps
// schema inference out of the measurement.
const nestedColumns = "`@timestamp` TIMESTAMP, clientip STRING, method STRING, path STRING, status INT, " +
	"bytes BIGINT, latency_ms DOUBLE, user_agent STRING, geo STRUCT<country: STRING, city: STRING>, " +
	"tags ARRAY<STRING>"

// flatColumns is the CSV column list: geo flattened, tags ';'-joined.
const flatColumns = "`@timestamp` TIMESTAMP, clientip STRING, method STRING, path STRING, status INT, " +
	"bytes BIGINT, latency_ms DOUBLE, user_agent STRING, geo_country STRING, geo_city STRING, tags STRING"

// TableName is the benchmark table over a layout.
func TableName(layout string) string { return "logs_" + layout }

// CreateTableSQL is the DDL for a layout stored under dir (an absolute path).
func CreateTableSQL(layout, dir string) (string, error) {
	loc := sql.QuoteString(strings.TrimSuffix(dir, "/") + "/" + layout + "/")
	name := TableName(layout)
	switch layout {
	case "ndjson", "ndjson_gz":
		return fmt.Sprintf("CREATE TABLE %s (%s) USING json LOCATION %s", name, nestedColumns, loc), nil
	case "csv":
		return fmt.Sprintf("CREATE TABLE %s (%s) USING csv LOCATION %s OPTIONS (header 'true')", name, flatColumns, loc), nil
	case "parquet":
		return fmt.Sprintf("CREATE TABLE %s (%s) USING parquet LOCATION %s", name, nestedColumns, loc), nil
	}
	return "", fmt.Errorf("unknown layout %q (known: %s)", layout, strings.Join(gen.Layouts, ", "))
}
