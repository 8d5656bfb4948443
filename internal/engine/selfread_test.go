package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// INSERT STREAM INTO t SELECT ... FROM t fed itself forever: each epoch
// read the files the one before wrote.
func TestStreamThatReadsItsSinkIsRefused(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	writeFile(t, filepath.Join(in, "a.json"), `{"k": "a", "n": 1}`+"\n")
	writeFile(t, filepath.Join(out, "seed.json"), `{"k": "s", "n": 0}`+"\n")
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mustExecAll(t, eng,
		"CREATE TABLE src (k STRING, n BIGINT) USING json LOCATION '"+in+"/'",
		"CREATE TABLE t (k STRING, n BIGINT) USING json LOCATION '"+out+"/'",
		"CREATE TABLE same (k STRING, n BIGINT) USING json LOCATION '"+out+"'",
		"CREATE TABLE parent (k STRING, n BIGINT) USING json LOCATION '"+dir+"/'",
		"CREATE TABLE seed (k STRING, n BIGINT) USING json LOCATION '"+filepath.Join(out, "seed.json")+"'",
		"CREATE TABLE idx (k STRING, n BIGINT) USING index",
	)
	refused := []string{
		"INSERT STREAM INTO t SELECT k, n FROM t",
		"INSERT STREAM INTO t SELECT k, n FROM (SELECT * FROM t WHERE n > 0) s",
		"INSERT STREAM INTO t WITH w AS (SELECT * FROM t) SELECT k, n FROM w",
		"INSERT STREAM INTO t SELECT s.k, s.n FROM src s JOIN t ON s.k = t.k",
		"INSERT STREAM INTO t SELECT k, n FROM same",
		"INSERT STREAM INTO t SELECT k, n FROM parent",
		"INSERT STREAM INTO idx SELECT k, n FROM idx",
	}
	for _, q := range refused {
		_, err := eng.Execute(ctx, q+" WITH (trigger = 'available_now')")
		if err == nil || !strings.Contains(err.Error(), "its own output") {
			t.Errorf("%s: err %v, want a refusal", q, err)
		}
	}
	// Nothing was written and no stream was left behind.
	if rows := queryRows(t, eng, "SELECT k FROM t"); strings.Join(rows, ",") != "s" {
		t.Fatalf("t after refusals: %v", rows)
	}
	if rows := queryRows(t, eng, "SHOW STREAMS"); len(rows) != 0 {
		t.Fatalf("streams left: %v", rows)
	}
	// Reading one file that happens to sit in the sink's folder, or
	// another folder, is fine.
	mustExecAll(t, eng,
		"INSERT STREAM INTO t SELECT k, n FROM seed WITH (trigger = 'available_now', name = 'from_seed')",
		"INSERT STREAM INTO t SELECT k, n FROM src WITH (trigger = 'available_now', name = 'from_src')",
	)
	if rows := queryRows(t, eng, "SELECT k FROM t"); strings.Join(rows, ",") != "a,s,s" {
		t.Fatalf("t: %v", rows)
	}
}

// A materialized view's stream writes the view; a view whose query reads
// the view feeds itself the same way.
func TestMaterializedViewThatReadsItselfIsRefused(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "in", "a.json"), `{"k": "a", "n": 1}`+"\n")
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mustExecAll(t, eng,
		"CREATE TABLE src (k STRING, n BIGINT) USING json LOCATION '"+filepath.Join(dir, "in")+"/'",
		// The same index as the view's, under another name.
		"CREATE TABLE alias (k STRING, n BIGINT) USING index OPTIONS (path '"+filepath.Join(dir, "data", "indexes", "v")+"')",
	)
	_, err = eng.Execute(ctx, "CREATE MATERIALIZED VIEW v AS SELECT k, n FROM src UNION ALL SELECT k, n FROM alias")
	if err == nil || !strings.Contains(err.Error(), "its own output") {
		t.Fatalf("err %v, want a refusal", err)
	}
	// The view is not left half made, and a view over other data works.
	if rows := queryRows(t, eng, "SHOW MATERIALIZED VIEWS"); len(rows) != 0 {
		t.Fatalf("views left: %v", rows)
	}
	mustExec(t, eng, "CREATE MATERIALIZED VIEW v AS SELECT k, n FROM src")
	// A view naming itself cannot even be planned: it does not exist yet.
	if _, err := eng.Execute(ctx, "CREATE MATERIALIZED VIEW w AS SELECT k, n FROM w"); err == nil {
		t.Fatal("a view over itself was created")
	}
}
