// Package job is what a running stream is, apart from how the engine
// plans one. It holds two things.
//
// The one table of the WITH (...) options of streams, materialized views
// and Flint indexes, each with its type, default, the statements that
// take it and its doc line (options.go). Statements check their options
// against it once (with a did-you-mean), read typed values from it, and
// docs/sql.md's option tables are printed from it.
//
//	opts := map[string]string{"trigger": "10 seconds", "workers": "2"}
//	if err := job.Check(job.Stream, opts, "for a stream", sourceKeys); err != nil { ... }
//	every, ok, err := job.Interval(opts, "trigger") // 10 s in microseconds
//
// The Manager (manager.go): the registry of the streams this process
// runs, one Run each (run.go, status.go), and of the queries submitted
// to run in the background (queries.go). Launch (launch.go) runs a
// stream in the foreground of its statement (foreground.go) or through a
// Background runner, retrying failed runs with backoff (retry.go);
// STOP reaches a run directly, or through its checkpoint's stop marker
// (stop_watch.go). The engine owns planning, sessions and the catalog and
// hands the Manager each run as a func; it passes what the Manager needs
// of it in a Config (a clock, the runner, the backoff, the stop marker).
// This package never imports the engine (internal/archtest checks it).
//
//	m := job.NewManager(job.Config[*Result]{Now: now, Background: bg, Message: message})
//	res, err := m.Launch(ctx, "feed", run, settle) // run calls m.Register and job.OnStarted
package job

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sluice/internal/suggest"
	"sluice/internal/types"
	"sluice/internal/usererr"
)

// Kind is the kind of job a statement defines.
type Kind uint8

// The kinds of job, as bits so an option says which take it.
const (
	Stream   Kind = 1 << iota // INSERT STREAM
	View                      // CREATE MATERIALIZED VIEW
	Skipping                  // CREATE SKIPPING INDEX
	Covering                  // CREATE INDEX ... ON (a view of the table's columns)
)

// Kinds are the kinds of job in the order the docs list them.
var Kinds = []Kind{Stream, View, Skipping, Covering}

func (k Kind) String() string {
	switch k {
	case Stream:
		return "stream"
	case View:
		return "materialized view"
	case Skipping:
		return "skipping index"
	case Covering:
		return "covering index"
	}
	return "job"
}

// Type is how an option's value is read.
type Type uint8

// The option types.
const (
	String   Type = iota
	Bool          // true or false
	Interval      // an interval: '10 seconds', '1 minute', INTERVAL 5 MINUTES
	Int           // a whole number, 1 or more
	Enum          // one of Option.Values
	JSON          // a JSON object (passed on)
	Location      // a directory or an s3:// prefix
	Expr          // a SQL expression or a column list
)

func (t Type) String() string {
	return [...]string{"string", "boolean", "interval", "integer", "one of", "JSON", "location", "expression"}[t]
}

// Option is one WITH (...) key.
type Option struct {
	Key      string
	Type     Type
	Values   []string // Enum's values
	Min, Max int      // Int's range
	Default  string   // "" when the default depends on the statement (Doc says)
	For      Kind     // the kinds of job that take it
	Doc      string
}

// Options are every option of streams, views and indexes, in the order
// the docs list them. A source connector's own stream options
// (max_files_per_trigger and the like) are the connector's: a statement
// checks them as extra keys (Check's extra).
var Options = []Option{
	{Key: "name", Type: String, For: Stream, Doc: "the stream's name (default: the sink table's name followed by `_stream`)"},
	{Key: "trigger", Type: String, For: Stream, Doc: "an interval between epochs (`'10 seconds'`), `'once'` (one epoch) or `'available_now'` (until caught up, then stop); default as fast as possible, as Spark's"},
	{Key: "auto_refresh", Type: Bool, Default: "false", For: View | Skipping | Covering, Doc: "`true`: a stream refreshing every `refresh_interval`, in the background of `sluice serve` or the foreground of the CLI, until stopped"},
	{Key: "refresh_interval", Type: Interval, For: View | Skipping | Covering, Doc: "trigger interval with `auto_refresh`"},
	{Key: "incremental_refresh", Type: Bool, Default: "false", For: View | Skipping | Covering, Doc: "recorded; REFRESH is incremental either way. `true` with `auto_refresh = true` is an error, as in Flint"},
	{Key: "scheduler_mode", Type: Enum, Values: []string{"internal", "external"}, Default: "internal", For: View | Skipping | Covering, Doc: "recorded, as Flint's"},
	{Key: "checkpoint_location", Type: Location, For: Stream | View | Skipping | Covering, Doc: "where the checkpoint lives, a directory or an `s3://` prefix (default under the data dir)"},
	{Key: "output_mode", Type: Enum, Values: []string{"append", "update", "complete"}, For: Stream | View | Covering, Doc: "`append` (a window is written once, when the watermark passes its end), `update` (changed groups every epoch) or `complete`; a stream's default is `append`, a view's `append` for windows with a watermark, else `complete` (Flint's full refresh)"},
	{Key: "watermark_delay", Type: Interval, For: Stream | View | Covering, Doc: "how late rows may come; puts the watermark on the window's time column when the table declares none"},
	{Key: "watermark_idle_timeout", Type: Interval, For: Stream | View | Covering, Doc: "advance the watermark of a stream that has seen no new rows for this long"},
	{Key: "lookup_refresh_interval", Type: Interval, Default: "1 minute", For: Stream, Doc: "how often the static side of a stream-static join is read again"},
	{Key: "id_expression", Type: Expr, For: View | Covering, Doc: "a SQL expression over the view's columns whose value is the document id, or a column list (`a, b`)"},
	{Key: "index_settings", Type: JSON, For: View | Skipping | Covering, Doc: "passed to an OpenSearch sink's index"},
	{Key: "index_mappings", Type: JSON, For: View | Skipping | Covering, Doc: "passed to an OpenSearch sink's index"},
	{Key: "sink", Type: String, Default: "index", For: View | Skipping | Covering, Doc: "the sink connector, `index` or `opensearch`; `sink.<key>` sets one of its options"},
	{Key: "extra_options", Type: JSON, For: View | Skipping | Covering, Doc: "`{\"<source table>\": {\"maxFilesPerTrigger\": \"1\"}, \"sink\": {...}}`: a source's stream options and the sink's"},
	{Key: "workers", Type: Int, Min: 1, Max: 1024, Default: "1", For: Stream, Doc: "how many processes share the stream's files (docs/scale-out.md)"},
	{Key: "partitions", Type: Int, Min: 1, Max: 4096, Default: "32", For: Stream, Doc: "key partitions of a keyed stream with `workers`"},
	{Key: "lock_ttl", Type: Interval, Default: "10 seconds", For: Stream, Doc: "how long a keyed worker's lease on a partition lasts without renewal"},
}

// Keys are the option keys kind takes, in Options' order.
func Keys(kind Kind) []string {
	var out []string
	for _, o := range Options {
		if o.For&kind != 0 {
			out = append(out, o.Key)
		}
	}
	return out
}

// Takes reports whether kind takes key.
func Takes(kind Kind, key string) bool {
	return slices.Contains(Keys(kind), key)
}

// lookup is key's Option.
func lookup(key string) (Option, bool) {
	for _, o := range Options {
		if o.Key == key {
			return o, true
		}
	}
	return Option{}, false
}

// Check refuses the first key of opts (in sorted order) that kind does
// not take and no extra list names, with a did-you-mean over both, and
// the first value of kind's own keys that does not read as its type.
// where completes the sentence ("for a stream"). Values never appear in
// the message: they may be secrets.
func Check(kind Kind, opts map[string]string, where string, extra ...[]string) error {
	known := Keys(kind)
	for _, e := range extra {
		known = append(known, e...)
	}
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(known, k) {
			return unknown(k, where, known)
		}
	}
	for _, k := range keys {
		o, ok := lookup(k)
		if !ok || o.For&kind == 0 {
			continue
		}
		if err := o.check(opts[k]); err != nil {
			return usererr.Wrap(usererr.Invalid, fmt.Errorf("%s: %w", k, err))
		}
	}
	return nil
}

func unknown(k, where string, known []string) error {
	all := slices.Clone(known)
	slices.Sort(all)
	all = slices.Compact(all)
	if s := suggest.Closest(k, all); s != "" {
		return usererr.Errorf(usererr.Invalid, "unknown option %q %s; did you mean %q?", k, where, s)
	}
	return usererr.Errorf(usererr.Invalid, "unknown option %q %s (known: %s)", k, where, strings.Join(all, ", "))
}

// check reads v as o's type; strings, JSON, locations and expressions
// are checked where they are used.
func (o Option) check(v string) error {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	switch o.Type {
	case Bool:
		if _, err := ParseBool(v, false); err != nil {
			return err
		}
	case Interval:
		if _, err := types.ParseInterval(v); err != nil {
			return err
		}
	case Int:
		if n, err := strconv.Atoi(v); err != nil || n < o.Min || n > o.Max {
			return fmt.Errorf("%q: want a number from %d to %d", v, o.Min, o.Max)
		}
	case Enum:
		if !slices.Contains(o.Values, strings.ToLower(v)) {
			return fmt.Errorf("%q is not %s", v, strings.Join(o.Values, ", "))
		}
	}
	return nil
}

// IntervalOf reads opts[key] as an interval in microseconds; ok is false
// when it is absent.
func IntervalOf(opts map[string]string, key string) (us int64, ok bool, err error) {
	v := opts[key]
	if v == "" {
		return 0, false, nil
	}
	iv, err := types.ParseInterval(v)
	if err != nil {
		return 0, false, usererr.Wrap(usererr.Invalid, fmt.Errorf("%s: %w", key, err))
	}
	return types.IntervalMicros(iv), true, nil
}

// ParseBool reads a boolean option: true, 1, yes, on or false, 0, no,
// off, any case; def when v is "".
func ParseBool(v string, def bool) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "":
		return def, nil
	case "true", "1", "yes", "on":
		return true, nil
	case "false", "0", "no", "off":
		return false, nil
	}
	return false, usererr.Errorf(usererr.Invalid, "%q is not a boolean", v)
}
