package runner

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteJSON writes the report as one indented JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	return nil
}

// WriteText writes the report as an aligned table, followed by the
// errors of failed queries and any disagreement between layouts.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s, GOMAXPROCS=%d, %d CPUs (%s); %d rows; best of %d\n\n",
		r.GoVersion, r.GOMAXPROCS, r.NumCPU, r.CPU, r.Rows, r.Repeat)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "layout\tquery\tname\tinput MB\tfiles\tbest s\trows/s\tMB/s\tcores\tMB/s/core\tcpu s\tMB/cpu-s\tresult rows\t")
	for _, x := range r.Results {
		if x.Error != "" {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f\t%d\tFAILED\t\t\t\t\t\t\t\t\n", x.Layout, x.Query, x.Name,
				float64(x.InputBytes)/1e6, x.Files)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f\t%d\t%.3f\t%s\t%.1f\t%d\t%.1f\t%.2f\t%.1f\t%d\t\n", x.Layout, x.Query, x.Name,
			float64(x.InputBytes)/1e6, x.Files, x.Best, humanCount(x.RowsPerSec), x.MBPerSec, x.Cores,
			x.MBPerSecPerCore, x.CPUSeconds, x.MBPerCPUSecond, x.ResultRows)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	for _, x := range r.Results {
		if x.Error != "" {
			fmt.Fprintf(w, "\n%s %s failed: %s", x.Layout, x.Query, firstLine(x.Error))
		}
	}
	for _, d := range r.Disagreements() {
		fmt.Fprintf(w, "\nWARNING: %s", d)
	}
	_, err := fmt.Fprintln(w)
	return err
}

// Disagreements lists queries whose result row count or single answer
// differs between layouts: every layout holds the same rows, so any
// difference is a reader bug.
func (r *Report) Disagreements() []string {
	type seen struct {
		layout string
		rows   int64
		answer string
	}
	first := map[string]seen{}
	var out []string
	for _, x := range r.Results {
		if x.Error != "" {
			continue
		}
		s, ok := first[x.Query]
		if !ok {
			first[x.Query] = seen{x.Layout, x.ResultRows, x.Answer}
			continue
		}
		if s.rows != x.ResultRows || s.answer != x.Answer {
			out = append(out, fmt.Sprintf("%s: %s gives %d rows %q, %s gives %d rows %q",
				x.Query, s.layout, s.rows, s.answer, x.Layout, x.ResultRows, x.Answer))
		}
	}
	return out
}

// line is the progress line printed as each query finishes.
func (x Result) line() string {
	if x.Error != "" {
		return fmt.Sprintf("%-9s %s %-22s FAILED: %s", x.Layout, x.Query, x.Name, firstLine(x.Error))
	}
	return fmt.Sprintf("%-9s %s %-22s best %7.3fs  %8s rows/s  %7.1f MB/s  %6.1f MB/s/core  %6.1f MB/cpu-s  %d rows",
		x.Layout, x.Query, x.Name, x.Best, humanCount(x.RowsPerSec), x.MBPerSec, x.MBPerSecPerCore,
		x.MBPerCPUSecond, x.ResultRows)
}

func humanCount(v float64) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%.2fG", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.2fM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.1fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}
