package fuzz

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"sluice/internal/types"
)

//go:embed duckdb_server.py
var duckServer string

// Duck is a running DuckDB (the duckdb Python package in one long-lived
// python3 process, duckdb_server.py) that answers one query at a time.
type Duck struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// StartDuck starts duckdb_server.py with python, an interpreter that can
// import duckdb (scripts/duckdb.sh installs one).
func StartDuck(python string) (*Duck, error) {
	cmd := exec.Command(python, "-c", duckServer)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start duckdb: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start duckdb: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start duckdb: %w", err)
	}
	d := &Duck{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}
	if a := d.query("SELECT 1"); a.err != nil {
		d.Close()
		return nil, fmt.Errorf("start duckdb: %w", a.err)
	}
	return d, nil
}

// Close ends the process (its stdin closes, so it exits) and waits.
func (d *Duck) Close() error {
	d.in.Close()
	return d.cmd.Wait()
}

// errDuck is an error DuckDB answered with (not a broken process).
type errDuck string

func (e errDuck) Error() string { return "duckdb: " + string(e) }

// query runs q in DuckDB and renders its rows as render does Sluice's.
func (d *Duck) query(q string) answer {
	statements++
	req, _ := json.Marshal(map[string]string{"sql": q})
	if _, err := d.in.Write(append(req, '\n')); err != nil {
		return answer{err: fmt.Errorf("duckdb process: %w", err)}
	}
	line, err := d.out.ReadBytes('\n')
	if err != nil {
		return answer{err: fmt.Errorf("duckdb process: %w", err)}
	}
	var resp struct {
		Rows  [][]any `json:"rows"`
		Error *string `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return answer{err: fmt.Errorf("duckdb response %.100q: %w", line, err)}
	}
	if resp.Error != nil {
		return answer{err: errDuck(*resp.Error)}
	}
	var rows []string
	for _, r := range resp.Rows {
		vals := make([]string, len(r))
		for i, c := range r {
			vals[i] = duckCell(c)
		}
		rows = append(rows, strings.Join(vals, " | "))
	}
	return answer{rows: sortRows(rows)}
}

// duckCell renders one cell of duckdb_server.py's answer as slt.Value
// renders Sluice's: NULL, (empty), escaped newlines, doubles rounded to
// 12 significant digits with -0.0 as 0.0 (see render).
func duckCell(c any) string {
	switch v := c.(type) {
	case nil:
		return "NULL"
	case bool:
		return strconv.FormatBool(v)
	case string:
		if v == "" {
			return "(empty)"
		}
		return strings.NewReplacer("\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(v)
	case map[string]any:
		s, _ := v["f"].(string)
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return "bad double " + s
		}
		if !math.IsNaN(f) && !math.IsInf(f, 0) {
			f, _ = strconv.ParseFloat(strconv.FormatFloat(f, 'g', 12, 64), 64)
		}
		out := types.FormatDouble(f)
		if out == "-0.0" {
			out = "0.0"
		}
		return out
	}
	return fmt.Sprintf("unknown cell %v", c)
}
