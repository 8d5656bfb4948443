package file

import (
	"fmt"
	"slices"
	"strings"

	"sluice/internal/format"
)

// sparkAliases maps Spark's reader option names (lower-cased, as the
// engine passes keys) to this connector's, for the ones that mean the
// same. Options whose Spark meaning needs a translation are handled in
// NormalizeSparkOptions.
var sparkAliases = map[string]string{
	"sep":                       "delimiter",
	"nullvalue":                 "null_value",
	"timestampformat":           "timestamp_format",
	"pathglobfilter":            "path_glob_filter",
	"columnnameofcorruptrecord": "corrupt_column",
	"modifiedafter":             "modified_after",
	"modifiedbefore":            "modified_before",
	"inferschema":               "infer_schema",
	"maxfilespertrigger":        "max_files_per_trigger",
	"maxbytespertrigger":        "max_bytes_per_trigger",
	"latestfirst":               "latest_first",
	"maxfileage":                "max_file_age",
	"multiline":                 "multiline",
	"linesep":                   "line_sep",
	"dateformat":                "date_format",
	"charset":                   "encoding",
}

// SparkOptionNames lists the Spark option names NormalizeSparkOptions
// takes, lower-cased, for error messages and documentation.
func SparkOptionNames() []string {
	out := []string{"recursivefilelookup", "encoding"}
	for k := range sparkAliases {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// NormalizeSparkOptions rewrites Spark's spellings of a file table's
// options (keys already lower-cased: sep, inferschema, multiline, ...)
// to this connector's own keys, with Spark's meaning. Options whose
// Spark meaning Sluice cannot honour yet are errors, never silently
// dropped. A key given under both names is an error.
func NormalizeSparkOptions(fmtName string, opts map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(opts))
	from := map[string]string{}
	set := func(spark, key, v string) error {
		if prev, ok := from[key]; ok && prev != spark {
			a, b := min(prev, spark), max(prev, spark)
			return fmt.Errorf("options %s and %s are the same option; give one", a, b)
		}
		from[key] = spark
		out[key] = v
		return nil
	}
	fmtKeys := format.OptionKeys(fmtName)
	for k, v := range opts {
		key := k
		if a, ok := sparkAliases[k]; ok {
			key = a
		}
		switch key {
		case "recursivefilelookup":
			// Spark reads sub-folders only as partitions unless this is
			// true, and then infers no partitions; Sluice always reads
			// sub-folders, so only true changes anything.
			on, err := parseBool(v)
			if err != nil {
				return nil, fmt.Errorf("option recursiveFileLookup = %q: %w", v, err)
			}
			if on {
				if err := set(k, "partition_inference", "off"); err != nil {
					return nil, err
				}
			}
			continue
		case "encoding", "line_sep":
			if slices.Contains(fmtKeys, key) {
				break // the format decodes it
			}
			if key == "line_sep" {
				if v == "\n" || v == "\r\n" || v == `\n` || v == `\r\n` {
					continue
				}
				return nil, fmt.Errorf("option lineSep = %q is not supported for %s", v, fmtName)
			}
			switch strings.ToLower(strings.ReplaceAll(strings.TrimSpace(v), "-", "")) {
			case "utf8", "":
				continue
			}
			return nil, fmt.Errorf("option encoding = %q is not supported for %s (only UTF-8)", v, fmtName)
		case "date_format":
			if v == "yyyy-MM-dd" || v == "" {
				continue // Spark's default, what DATE values are read as
			}
			return nil, fmt.Errorf("option dateFormat = %q is not supported yet (DATE values are read as yyyy-MM-dd)", v)
		case "multiline":
			on, err := parseBool(v)
			if err != nil {
				return nil, fmt.Errorf("option multiLine = %q: %w", v, err)
			}
			if slices.Contains(fmtKeys, "multiline") {
				break // the format decodes it
			}
			if !on {
				continue // one record per line is what is read
			}
			return nil, fmt.Errorf("option multiLine = true is not supported yet for %s (one record per line)", fmtName)
		case "infer_schema":
			if fmtName != "csv" {
				return nil, fmt.Errorf("option inferSchema is a csv option (%s tables always infer types)", fmtName)
			}
		}
		if err := set(k, key, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}
