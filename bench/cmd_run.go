package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"sluice/bench/runner"
)

// cmdRun runs "bench run".
func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	data := fs.String("data", "", "data set directory written by bench gen (required)")
	format := fs.String("format", "all", "layouts to run: ndjson, ndjson_gz, csv, parquet, all, or a comma list")
	repeat := fs.Int("repeat", 3, "runs per query; the best time is reported")
	query := fs.String("query", "", "comma-separated query IDs (default all: Q1,Q2,Q3,Q4)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to FILE")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	par := fs.Int("parallelism", 0, "engine scan parallelism (0 = GOMAXPROCS)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("run: unexpected argument %q", fs.Arg(0))
	}
	if *data == "" {
		return fmt.Errorf("run: --data is required")
	}
	o := runner.Options{Data: *data, Layouts: splitList(*format), Queries: splitList(*query),
		Repeat: *repeat, Parallelism: *par}
	if !*asJSON {
		o.Log = stderr
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return fmt.Errorf("run: creating profile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("run: starting profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	rep, err := runner.Run(ctx, o)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if *asJSON {
		return rep.WriteJSON(stdout)
	}
	return rep.WriteText(stdout)
}
