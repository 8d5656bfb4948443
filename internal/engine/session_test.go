package engine

import (
	"context"
	"strings"
	"testing"
)

// sessionRows runs sql in s and returns the last result's rows.
func sessionRows(t *testing.T, s *Session, sql string) []string {
	t.Helper()
	res, err := s.Execute(t.Context(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return resultRows(res[len(res)-1])
}

// TestSessionsIsolated: USE, SET and RESET in one session are invisible
// to another and to the engine's own (the CLI's) session.
func TestSessionsIsolated(t *testing.T) {
	eng := newTestEngine(t)
	mustExec(t, eng, "CREATE DATABASE web")
	a, b := eng.NewSession("alice"), eng.NewSession("bob")
	sessionRows(t, a, "USE web")
	sessionRows(t, a, "SET s3.secret_key = 'alice-secret'")
	sessionRows(t, a, "SET memory_limit = '64MB'")

	if got := a.Database(); got != "web" {
		t.Errorf("a's database = %q, want web", got)
	}
	if got := b.Database(); got != "default" {
		t.Errorf("b's database = %q, want default", got)
	}
	if got := eng.currentDB(context.Background()); got != "default" {
		t.Errorf("the engine's database = %q, want default", got)
	}
	if rows := sessionRows(t, b, "SHOW SETTINGS"); len(rows) != 0 {
		t.Errorf("b sees settings %v", rows)
	}
	if rows := sortedRows(t, eng, "SHOW SETTINGS"); len(rows) != 0 {
		t.Errorf("the engine's session sees settings %v", rows)
	}
	rows := sessionRows(t, a, "SHOW SETTINGS")
	if len(rows) != 2 || strings.Contains(strings.Join(rows, " "), "alice-secret") {
		t.Errorf("a's settings = %v, want two, the secret redacted", rows)
	}

	// A table made in a's database is a's unqualified name only.
	sessionRows(t, a, "CREATE TABLE t (x INT) USING json LOCATION '"+t.TempDir()+"'")
	if rows := sessionRows(t, a, "SHOW TABLES"); len(rows) != 1 {
		t.Errorf("a's SHOW TABLES = %v, want t", rows)
	}
	if rows := sessionRows(t, b, "SHOW TABLES"); len(rows) != 0 {
		t.Errorf("b's SHOW TABLES (default database) = %v, want none", rows)
	}
	if _, err := b.Execute(t.Context(), "SELECT * FROM t"); err == nil {
		t.Error("b read a's unqualified t from the default database")
	}

	sessionRows(t, a, "RESET memory_limit")
	if rows := sessionRows(t, a, "SHOW SETTINGS"); len(rows) != 1 {
		t.Errorf("a's settings after RESET = %v, want one", rows)
	}
	// DROP DATABASE falls back to default in the session that dropped
	// it; another session using it keeps its choice (and its errors).
	sessionRows(t, b, "USE web")
	sessionRows(t, a, "USE default")
	sessionRows(t, a, "DROP DATABASE web CASCADE")
	if got := b.Database(); got != "web" {
		t.Errorf("b's database after a dropped it = %q, want web", got)
	}
}

// TestSessionDetached: what a stream keeps of its session does not
// change when the session does.
func TestSessionDetached(t *testing.T) {
	eng := newTestEngine(t)
	s := eng.NewSession("alice")
	sessionRows(t, s, "SET s3.region = 'eu-west-1'")
	d := s.detached()
	sessionRows(t, s, "SET s3.region = 'us-east-1'")
	if v, _ := d.setting("s3.region"); v != "eu-west-1" {
		t.Errorf("detached s3.region = %q, want eu-west-1", v)
	}
	if d.User() != "alice" {
		t.Errorf("detached user = %q", d.User())
	}
	// A context's session is only used by its own engine.
	other := newTestEngine(t)
	if got := other.session(WithSession(t.Context(), s)); got != other.def {
		t.Error("an engine ran in another engine's session")
	}
}

// TestSetS3SaysSessionOnly: SET s3.* answers that it lasts for this
// session, so a next run failing without it is no surprise; other keys
// answer plainly.
func TestSetS3SaysSessionOnly(t *testing.T) {
	eng := newTestEngine(t)
	for key, want := range map[string]string{
		"s3.endpoint":  "s3.endpoint set for this session only (put it in the table's OPTIONS to keep it)",
		"memory_limit": "memory_limit set",
	} {
		val := "http://127.0.0.1:7070"
		if key == "memory_limit" {
			val = "64MB"
		}
		res, err := eng.Execute(t.Context(), "SET "+key+" = '"+val+"'")
		if err != nil {
			t.Fatal(err)
		}
		if got := res[0].Message; got != want {
			t.Errorf("SET %s: %q, want %q", key, got, want)
		}
	}
}
