// Package file is the connector for tables of files: JSON lines, CSV and
// Parquet, on local disk or in an object store, optionally compressed and
// laid out in Hive partition folders.
//
// A table's LOCATION is a file, a folder (read recursively) or a glob:
//
//	spec := connector.TableSpec{Name: "logs", Using: "json",
//		Location: "s3://logs/http/year=*/*.json.gz",
//		Options:  map[string]string{"region": "eu-west-1"}}
//	src, _ := file.NewSource(ctx, spec)      // schema inferred from a sample
//	off, _ := src.Latest(ctx)                // the files there now
//	splits, _ := src.Plan(ctx, nil, off)     // a split per file or per split_size part
//	rr, _ := src.Open(ctx, splits[0])        // Arrow batches
//
// Folders named col=value become columns (year=2026/month=11/), filters on
// them skip files before any is opened, and filters on data columns skip
// Parquet row groups by their statistics. The Sink writes new files named
// part-<prefix>-<seq>.<ext> into the location, into col=value/ folders for
// partitioned tables, and never touches files it did not write.
//
// A batch Plan cuts files larger than split_size (64 MiB) into format.Part
// byte ranges (parts.go); a stream's Plan keeps whole files. The
// StreamSource (stream.go) lists new files (discovery full or start_after)
// or takes them from S3 event notifications on an internal/queue Queue
// (discovery 'notifications', notify.go: messages acked only after the
// epoch that read their files commits), rate-limits them, and keeps a
// seen-file log per epoch, compacted into a zstd snapshot every 10 epochs.
package file

import (
	"fmt"
	"sort"
	"strings"

	"sluice/internal/format"
	"sluice/internal/storage"
)

// Formats are the USING names this connector serves.
var Formats = []string{"csv", "json", "parquet"}

func isFormat(name string) bool {
	for _, f := range Formats {
		if f == name {
			return true
		}
	}
	return false
}

// OptionKeys lists every OPTIONS key a table of the given format accepts:
// the format's, the store's and the connector's own, sorted. Store keys
// are also accepted with an "s3." prefix.
func OptionKeys(fmtName string) []string {
	seen := map[string]bool{}
	var keys []string
	for _, group := range [][]string{format.OptionKeys(fmtName), storage.OptionKeys(), SourceOptionKeys} {
		for _, k := range group {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

// ValidateOptions checks a file table's option values (the registry
// checked the keys). Errors name the option; they never echo secret
// values.
func ValidateOptions(fmtName string, opts map[string]string) error {
	fmtName = strings.ToLower(fmtName)
	if !isFormat(fmtName) {
		return fmt.Errorf("%q is not a file format (known: %s)", fmtName, strings.Join(Formats, ", "))
	}
	if _, err := format.ParseOptions(fmtName, formatOptions(fmtName, opts)); err != nil {
		return err
	}
	if _, err := storage.OptionsFromMap(opts); err != nil {
		return err
	}
	if _, err := parseSourceOptions(opts); err != nil {
		return err
	}
	return nil
}

// StreamOptionKeys are the options a stream may set for itself in its
// WITH (...), over the table's: all of the connector's own.
var StreamOptionKeys = SourceOptionKeys

// FormatFromLocation guesses the format from a location's file extension
// (under any compression suffix); "" when it does not tell.
func FormatFromLocation(loc string) string {
	l := strings.ToLower(loc)
	for _, c := range []string{".gz", ".zst", ".zstd", ".snappy", ".sz", ".bz2"} {
		l = strings.TrimSuffix(l, c)
	}
	switch {
	case strings.HasSuffix(l, ".json"), strings.HasSuffix(l, ".jsonl"), strings.HasSuffix(l, ".ndjson"):
		return "json"
	case strings.HasSuffix(l, ".csv"), strings.HasSuffix(l, ".tsv"):
		return "csv"
	case strings.HasSuffix(l, ".parquet"):
		return "parquet"
	}
	return ""
}
