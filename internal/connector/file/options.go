package file

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"sluice/internal/queue"
	"sluice/internal/types"
)

// SourceOptionKeys are the table options the file connector itself reads,
// on top of the format's and the store's.
var SourceOptionKeys = []string{
	"recursive",               // true (default): a directory location includes sub-folders
	"path_glob_filter",        // glob on the file name only, e.g. *.json.gz
	"partition_inference",     // on (default) | off: read col=value folders as columns
	"sample_rows",             // rows format.Infer samples (default 1000)
	"max_files_per_trigger",   // streaming: new files per epoch
	"max_bytes_per_trigger",   // streaming: bytes per epoch (e.g. 512MB)
	"latest_first",            // streaming: newest files first
	"max_file_age",            // ignore files older than this interval (e.g. '7 days')
	"discovery",               // streaming: full (default; also 'listing'), start_after or notifications
	"queue",                   // discovery 'notifications': nats://host:4222/<stream>/<consumer>, sqs://..., kafka://...
	"discovery_backfill",      // discovery 'notifications': list what exists on first start (default true)
	"reconcile_interval",      // discovery 'notifications': list for files the events missed this often (default 5 minutes; 0/off: never)
	"reconcile_full_every",    // discovery 'notifications': every Nth reconcile lists the whole location (default 12; 0: never)
	"reprocess_changed_files", // streaming: a file whose etag changed is read again
	"dead_letter_location",    // where bad rows go (the engine wires it)
	"skip_files",              // comma-separated globs of keys (relative to the location) to ignore
	"file_prefix",             // sink: text put in written file names before the query's prefix
	"max_rows_per_file",       // sink: roll to a new file after this many rows (default 1000000)
	"read_ahead",              // object stores: small objects fetched ahead, in flight at once (default 16, 0 off)
	"modified_after",          // only files modified after this timestamp (Spark's modifiedAfter)
	"modified_before",         // only files modified before this timestamp (Spark's modifiedBefore)
	"infer_schema",            // csv: false reads every inferred column as STRING (Spark's inferSchema)
	"split_size",              // batch reads: files larger than this are read in parts of this size (default 64MB, 0 off)
}

// sourceOptions is SourceOptionKeys parsed.
type sourceOptions struct {
	Recursive          bool
	PathGlobFilter     *glob
	PartitionInference bool
	SampleRows         int
	MaxFilesPerTrigger int
	MaxBytesPerTrigger int64
	LatestFirst        bool
	MaxFileAge         time.Duration
	Discovery          string
	// Queue and Backfill: discovery 'notifications'.
	Queue    string
	Backfill bool
	// ReconcileInterval and ReconcileFullEvery: discovery
	// 'notifications' (reconcile.go); an interval of 0 never reconciles.
	ReconcileInterval     time.Duration
	ReconcileFullEvery    int
	ReprocessChangedFiles bool
	DeadLetterLocation    string
	SkipFiles             []*glob
	FilePrefix            string
	MaxRowsPerFile        int64
	ReadAhead             int
	// ModifiedAfter/ModifiedBefore bound file modification times (µs
	// since the epoch, UTC); 0 is unbounded.
	ModifiedAfter, ModifiedBefore int64
	// InferSchema false: inferred CSV columns are all STRING.
	InferSchema bool
	// SplitSize is the byte size of the parts a batch read cuts a large
	// file into; 0 reads every file whole.
	SplitSize int64
}

func defaultSourceOptions() sourceOptions {
	return sourceOptions{
		Recursive:          true,
		PartitionInference: true,
		SampleRows:         1000,
		Discovery:          "listing",
		Backfill:           true,
		ReconcileInterval:  5 * time.Minute,
		ReconcileFullEvery: 12,
		MaxRowsPerFile:     1_000_000,
		ReadAhead:          defaultReadAhead,
		InferSchema:        true,
		SplitSize:          defaultSplitSize,
	}
}

// parseSourceOptions reads the file connector's own keys from m and
// ignores the rest (the format and the store validate theirs).
func parseSourceOptions(m map[string]string) (sourceOptions, error) {
	o := defaultSourceOptions()
	var err error
	for k, v := range m {
		v = strings.TrimSpace(v)
		switch k {
		case "recursive":
			o.Recursive, err = parseBool(v)
		case "path_glob_filter":
			o.PathGlobFilter, err = compileGlob(v)
		case "partition_inference":
			o.PartitionInference, err = parseBool(v)
		case "sample_rows":
			o.SampleRows, err = parsePositiveInt(v)
		case "max_files_per_trigger":
			o.MaxFilesPerTrigger, err = parsePositiveInt(v)
		case "max_bytes_per_trigger":
			o.MaxBytesPerTrigger, err = parseBytes(v)
		case "latest_first":
			o.LatestFirst, err = parseBool(v)
		case "max_file_age":
			o.MaxFileAge, err = parseAge(v)
		case "discovery":
			o.Discovery = strings.ToLower(v)
			switch o.Discovery {
			case "full", "listing", "start_after", "notifications":
			default:
				err = fmt.Errorf("want full, start_after or notifications")
			}
		case "queue":
			o.Queue = v
			if v != "" && !strings.Contains(v, "://") && !strings.Contains(v, "${env:") {
				err = fmt.Errorf("want nats://host:4222/<stream>/<consumer>, sqs://... or kafka://...")
			}
			v = queue.Redact(v)
		case "discovery_backfill":
			o.Backfill, err = parseBool(v)
		case "reconcile_interval":
			o.ReconcileInterval = 0
			if l := strings.ToLower(v); l != "0" && l != "off" && l != "false" {
				o.ReconcileInterval, err = parseAge(v)
			}
		case "reconcile_full_every":
			o.ReconcileFullEvery, err = strconv.Atoi(v)
			if err == nil && o.ReconcileFullEvery < 0 {
				err = fmt.Errorf("want 0 (never) or a count of reconciles")
			}
		case "reprocess_changed_files":
			o.ReprocessChangedFiles, err = parseBool(v)
		case "dead_letter_location":
			o.DeadLetterLocation = v
		case "skip_files":
			for _, p := range strings.Split(v, ",") {
				if p = strings.TrimSpace(p); p == "" {
					continue
				}
				var g *glob
				if g, err = compileGlob(p); err != nil {
					break
				}
				o.SkipFiles = append(o.SkipFiles, g)
			}
		case "file_prefix":
			o.FilePrefix = v
			if strings.ContainsAny(v, "/\\") {
				err = fmt.Errorf("must not contain a path separator")
			}
		case "read_ahead":
			o.ReadAhead, err = strconv.Atoi(strings.ReplaceAll(v, "_", ""))
			if err != nil || o.ReadAhead < 0 {
				err = fmt.Errorf("expected a number of objects (0 turns read-ahead off)")
			}
		case "modified_after", "modified_before":
			ts, ok := types.ParseTimestamp(v)
			if !ok {
				err = fmt.Errorf("expected a timestamp such as 2020-06-01T13:00:00")
			} else if k == "modified_after" {
				o.ModifiedAfter = ts
			} else {
				o.ModifiedBefore = ts
			}
		case "infer_schema":
			o.InferSchema, err = parseBool(v)
		case "split_size":
			if b, berr := parseBool(v); berr == nil && !b {
				o.SplitSize = 0
				break
			}
			o.SplitSize, err = parseBytes(v)
		case "max_rows_per_file":
			var n int
			n, err = parsePositiveInt(v)
			o.MaxRowsPerFile = int64(n)
		}
		if err != nil {
			return o, fmt.Errorf("option %s = %q: %w", k, v, err)
		}
	}
	return o, nil
}

func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true", "on", "yes", "1":
		return true, nil
	case "false", "off", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("expected true/false or on/off")
}

func parsePositiveInt(s string) (int, error) {
	n, err := strconv.Atoi(strings.ReplaceAll(s, "_", ""))
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("expected a positive integer")
	}
	return n, nil
}

// parseBytes reads 1048576, 512k, 512KB, 64MB, 1GiB (powers of 1024).
func parseBytes(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "IB"), "B")
	mult := int64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult, t = 1<<10, t[:n-1]
		case 'M':
			mult, t = 1<<20, t[:n-1]
		case 'G':
			mult, t = 1<<30, t[:n-1]
		case 'T':
			mult, t = 1<<40, t[:n-1]
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("expected a size like 512MB")
	}
	return n * mult, nil
}

// parseAge reads an interval ('7 days', '1 hour') or a Go duration ('36h').
func parseAge(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return d, nil
	}
	iv, err := types.ParseInterval(s)
	if err != nil {
		return 0, err
	}
	d := time.Duration(iv.Months)*30*24*time.Hour + time.Duration(iv.Days)*24*time.Hour + time.Duration(iv.Nanoseconds)
	if d <= 0 {
		return 0, fmt.Errorf("expected a positive interval")
	}
	return d, nil
}
