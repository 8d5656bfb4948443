// Command bench generates Sluice's benchmark data set and times the
// engine on it.
//
//	go run ./bench gen --size 1GB --out /tmp/sluice-bench --files 8 --seed 1
//	go run ./bench run --data /tmp/sluice-bench --format all --repeat 3
//	go run ./bench run --data /tmp/sluice-bench --format ndjson --query Q1 --cpuprofile /tmp/q1.pprof
//	go build -o /tmp/bench ./bench && /tmp/bench serve --duration 10s
//
// See BENCHMARKS.md at the repository root for measured figures.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

const usage = `usage:
  bench gen --rows N | --size 1GB  --out DIR [--files K] [--seed S] [--layouts ndjson,csv,...]
  bench run --data DIR [--format ndjson|ndjson_gz|csv|parquet|all] [--repeat 3]
            [--query Q1,Q2] [--cpuprofile FILE] [--json]
  bench serve [--duration 10s] [--clients 1,16,64] [--streams 20] [--stream-rows N]
            [--stream-files K] [--load-clients 64] [--dir DIR] [--json]
  bench workers   [--files 48] [--rows 20000] [--workers 1,2,3] [--max-files 1] [--cluster] [--sluice BIN]
  bench freshness [--objects 40] [--gap 250ms] [--sluice BIN]
  bench searchable [--objects 120] [--gap 500ms] [--sluice BIN]
  bench discover  [--keys 1000000] [--objects 10] [--gap 1s] [--sluice BIN]
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return fmt.Errorf("no command")
	}
	switch args[0] {
	case "gen":
		return cmdGen(ctx, args[1:], os.Stdout)
	case "run":
		return cmdRun(ctx, args[1:], os.Stdout, os.Stderr)
	case "serve":
		return cmdServe(ctx, args[1:], os.Stdout, os.Stderr)
	case "workers":
		return cmdWorkers(ctx, args[1:], os.Stdout, os.Stderr)
	case "freshness":
		return cmdFreshness(ctx, args[1:], os.Stdout, os.Stderr)
	case "searchable":
		return cmdSearchable(ctx, args[1:], os.Stdout, os.Stderr)
	case "discover":
		return cmdDiscover(ctx, args[1:], os.Stdout, os.Stderr)
	case "help", "-h", "--help":
		fmt.Print(usage)
		return nil
	}
	fmt.Fprint(os.Stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// splitList reads a comma-separated flag value.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
