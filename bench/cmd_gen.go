package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"sluice/bench/gen"
)

// cmdGen runs "bench gen".
func cmdGen(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	rows := fs.Int64("rows", 0, "total rows (or use --size)")
	size := fs.String("size", "", "target NDJSON size, e.g. 1GB or 200MB")
	out := fs.String("out", "", "output directory (required)")
	files := fs.Int("files", 8, "files per layout")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives byte-identical files")
	layouts := fs.String("layouts", "all", "comma-separated layouts: ndjson,ndjson_gz,csv,parquet")
	par := fs.Int("parallelism", 0, "files generated at once (0 = GOMAXPROCS)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("gen: unexpected argument %q", fs.Arg(0))
	}
	if *out == "" {
		return fmt.Errorf("gen: --out is required")
	}
	o := gen.Options{Dir: *out, Rows: *rows, Files: *files, Seed: *seed, Layouts: splitList(*layouts), Parallelism: *par}
	if *size != "" {
		if *rows > 0 {
			return fmt.Errorf("gen: give --rows or --size, not both")
		}
		n, err := gen.ParseSize(*size)
		if err != nil {
			return fmt.Errorf("gen: %w", err)
		}
		o.Size = n
	}
	if o.Rows <= 0 && o.Size <= 0 {
		return fmt.Errorf("gen: --rows or --size is required")
	}
	start := time.Now()
	m, err := gen.Generate(ctx, o)
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	secs := time.Since(start).Seconds()
	var total int64
	fmt.Fprintf(stdout, "%d rows in %d files per layout under %s (seed %d)\n", m.Rows, m.Files, *out, m.Seed)
	for _, l := range gen.Layouts {
		if lay := m.Layouts[l]; lay != nil {
			total += lay.Bytes
			fmt.Fprintf(stdout, "  %-10s %10.1f MB\n", l, float64(lay.Bytes)/1e6)
		}
	}
	rate := ""
	if lay := m.Layouts["ndjson"]; lay != nil {
		rate = fmt.Sprintf(", %.0f MB/s of NDJSON", float64(lay.Bytes)/1e6/secs)
	}
	fmt.Fprintf(stdout, "generated in %.1fs: %.0f MB/s written%s\n", secs, float64(total)/1e6/secs, rate)
	return nil
}
