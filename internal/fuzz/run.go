package fuzz

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sluice/internal/engine"
)

// Config is one fuzzing run.
type Config struct {
	// Seed makes the run: the same seed draws the same tables and queries.
	Seed uint64
	// Queries is how many oracle checks to run.
	Queries int
	// Dir holds the engines' data directories and the tables' files; it
	// should be empty (a test's t.TempDir()).
	Dir string
	// PerTable is how many checks run against each generated table
	// before a new one is drawn; 0 means 30.
	PerTable int
	// Duck, when set, makes the run a DuckDB differential one: every
	// check is the DuckDB oracle's (duckdb_oracle.go), over views of the
	// tables' files, and no twins are written.
	Duck *Duck
}

// Divergence is an oracle check whose two sides disagreed.
type Divergence struct {
	Seed   uint64
	Oracle string
	// Query1 and Query2 are the two sides; Answer1 and Answer2 what
	// they returned (rows one a line, sorted).
	Query1, Answer1 string
	Query2, Answer2 string
	// Repro is a script that reproduces it: the table's CREATE and
	// INSERT statements, then both sides' queries.
	Repro string
}

func (d Divergence) String() string {
	return fmt.Sprintf("fuzz seed %d, oracle %s:\n-- side 1:\n%s\n-- gives:\n%s\n-- side 2:\n%s\n-- gives:\n%s\n-- reproduction:\n%s",
		d.Seed, d.Oracle, d.Query1, d.Answer1, d.Query2, d.Answer2, d.Repro)
}

// Stats counts what a run did.
type Stats struct {
	Tables, Checks, Skipped int
	// Queries is how many SQL queries the checks ran.
	Queries int
	// SetupFailures counts tables whose CREATE or INSERT failed.
	SetupFailures int
	// SkipReasons counts skipped checks by the start of their error.
	SkipReasons map[string]int
	// IndexSkipped is how many skipping checks had files skipped by the
	// index (so the oracle is seen to exercise skipping).
	IndexSkipped int
	// IndexChecks is how many skipping checks compared answers.
	IndexChecks int
	// OneSided counts checks where one engine failed and the other
	// answered, by "<engine that failed>: <error's gist>"; OneSidedCases
	// are the first maxOneSided of them, whole.
	OneSided      map[string]int
	OneSidedCases []Divergence
}

// maxOneSided bounds Stats.OneSidedCases.
const maxOneSided = 20

// skipReason is the gist of a skipped check's error: its message with
// file names and values cut, so that like errors count together.
func skipReason(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && strings.Contains(msg[:i], "split") {
		msg = msg[i+2:]
	}
	if len(msg) > 70 {
		msg = msg[:70]
	}
	return msg
}

// Run runs cfg.Queries checks and returns the divergences found. An error
// is returned only when the engines cannot be opened.
//
// Runs share package state (the query counter, the panic context), so
// they must not run concurrently.
func Run(ctx context.Context, cfg Config) (divs []Divergence, st Stats, err error) {
	per := cfg.PerTable
	if per <= 0 {
		per = 30
	}
	eng, err := engine.Open(engine.Options{DataDir: filepath.Join(cfg.Dir, "data")})
	if err != nil {
		return nil, st, err
	}
	serial, err := engine.Open(engine.Options{DataDir: filepath.Join(cfg.Dir, "serial"), Parallelism: 1})
	if err != nil {
		return nil, st, err
	}
	e := env{eng: eng, serial: serial, duck: cfg.Duck}
	drawFrom := oracles
	if cfg.Duck != nil {
		drawFrom = duckOracles
	}
	files := filepath.Join(cfg.Dir, "files")
	if err := os.MkdirAll(files, 0o755); err != nil {
		return nil, st, err
	}
	r := newRand(cfg.Seed)
	before := statements
	skipsBefore, checksBefore := indexSkips, indexChecks
	defer func() {
		st.Queries, st.IndexSkipped, st.IndexChecks = statements-before, indexSkips-skipsBefore, indexChecks-checksBefore
	}()
	var t *Table
	var setup []string
	for i := 0; i < cfg.Queries; i++ {
		if i%per == 0 {
			if t != nil {
				// The catalog is read whole on every lookup: a run that
				// kept its tables would slow down as it goes.
				if err := dropTable(ctx, e, t); err != nil {
					return divs, st, err
				}
			}
			t = genTable(r, fmt.Sprintf("t%d", i/per), files)
			t.Twins = nil
			for _, f := range []string{"json", "csv", "parquet"} {
				if f != t.Format && cfg.Duck == nil {
					t.Twins = append(t.Twins, t.twin(f, t.Name+"_"+f, files))
				}
			}
			if t.Part >= 0 && cfg.Duck == nil {
				flat := t.twin("parquet", t.Name+"_flat", files)
				flat.Part = -1
				t.Twins = append(t.Twins, flat)
			}
			t.Index = drawIndexTwin(r, t)
			setup = t.Statements()
			for _, tw := range t.Twins {
				setup = append(setup, tw.Statements()...)
			}
			if err := createOn(ctx, eng, setup); err != nil {
				st.SetupFailures++
				divs = append(divs, Divergence{Seed: cfg.Seed, Oracle: "setup", Query1: err.Error(), Repro: joinQueries(setup...)})
				t = nil
			} else if err := createOn(ctx, serial, setup[:1]); err != nil {
				return nil, st, err
			} else if cfg.Duck != nil {
				view := duckView(t)
				if a := cfg.Duck.query(view); a.err != nil {
					st.SetupFailures++
					divs = append(divs, Divergence{Seed: cfg.Seed, Oracle: "duckdb setup", Query1: view, Answer1: a.err.Error(), Repro: joinQueries(setup...)})
					t = nil
				}
				setup = append(setup, "-- duckdb: "+view)
			}
			st.Tables++
		}
		o := drawFrom[r.IntN(len(drawFrom))]
		if t == nil {
			// Keep the random stream the same whether or not setup worked.
			o.draw(&exprGen{r: r, cols: []Column{{"c0", Int}}}, &Table{Name: "none", Cols: []Column{{"c0", Int}}})
			continue
		}
		c := o.draw(&exprGen{r: r, cols: t.Cols}, t)
		st.Checks++
		f := runCheck(ctx, e, c)
		switch {
		case f == nil:
		case f.skipped != nil:
			st.Skipped++
			if st.SkipReasons == nil {
				st.SkipReasons = map[string]int{}
			}
			st.SkipReasons[skipReason(f.skipped)]++
			if f.failed != "" {
				st.recordOneSided(f, Divergence{Seed: cfg.Seed, Oracle: c.oracle + " (" + f.failed + " failed)",
					Query1: f.query1, Answer1: f.answer1, Query2: f.query2, Answer2: f.answer2,
					Repro: joinQueries(append(append([]string{}, setup...), f.query1, f.query2)...)})
			}
		default:
			divs = append(divs, Divergence{
				Seed: cfg.Seed, Oracle: c.oracle,
				Query1: f.query1, Answer1: f.answer1, Query2: f.query2, Answer2: f.answer2,
				Repro: joinQueries(append(append([]string{}, setup...), f.query1, f.query2)...),
			})
		}
	}
	return divs, st, nil
}

// runCheck runs c, turning a panic in the engine into a finding (and
// putting the session's settings back).
func runCheck(ctx context.Context, e env, c check) (f *finding) {
	defer func() {
		if p := recover(); p != nil {
			for _, v := range variants {
				if v.undo != "" {
					e.eng.Execute(ctx, v.undo)
				}
			}
			q := lastQuery
			if activeSetting != "" {
				q = joinQueries(activeSetting, q)
			}
			activeSetting = ""
			f = &finding{query1: c.pred, answer1: "(the check's queries)", query2: q, answer2: fmt.Sprintf("panic: %v", p)}
		}
	}()
	return c.run(ctx, e)
}

// dropTable drops t, its twins and its indexed twin from both engines
// (the files stay).
func dropTable(ctx context.Context, e env, t *Table) error {
	var stmts []string
	if tw := t.Index; tw != nil && tw.done {
		if tw.err == nil {
			stmts = append(stmts, "DROP SKIPPING INDEX ON "+tw.name)
		}
		stmts = append(stmts, "DROP TABLE IF EXISTS "+tw.name)
	}
	for _, tw := range t.Twins {
		stmts = append(stmts, "DROP TABLE IF EXISTS "+tw.Name)
	}
	stmts = append(stmts, "DROP TABLE IF EXISTS "+t.Name)
	if err := createOn(ctx, e.eng, stmts); err != nil {
		return fmt.Errorf("dropping a done table: %w", err)
	}
	if err := createOn(ctx, e.serial, stmts[len(stmts)-1:]); err != nil {
		return fmt.Errorf("dropping a done table: %w", err)
	}
	return nil
}

// createOn runs the setup statements on eng.
func createOn(ctx context.Context, eng *engine.Engine, stmts []string) error {
	for _, s := range stmts {
		if _, err := eng.Execute(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", firstLine(s), err)
		}
	}
	return nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + "..."
	}
	return s
}

// recordOneSided counts a check only one engine failed, and keeps it
// whole while there are few.
func (st *Stats) recordOneSided(f *finding, d Divergence) {
	if st.OneSided == nil {
		st.OneSided = map[string]int{}
	}
	st.OneSided[f.failed+": "+skipReason(f.skipped)]++
	if len(st.OneSidedCases) < maxOneSided {
		st.OneSidedCases = append(st.OneSidedCases, d)
	}
}
