package engine

import (
	"testing"

	"sluice/internal/sql"
)

// TestStreamName: the name a stream gets, with and without WITH (name),
// is the one its checkpoint folder was always named after.
func TestStreamName(t *testing.T) {
	eng := newTestEngine(t)
	mustExec(t, eng, "CREATE DATABASE analytics")
	for _, tc := range []struct {
		use, stmt, want string
	}{
		{"", "INSERT STREAM INTO logs SELECT * FROM src", "logs_stream"},
		{"", "INSERT STREAM INTO Logs SELECT * FROM src", "logs_stream"},
		{"", "INSERT STREAM INTO default.Logs SELECT * FROM src", "logs_stream"},
		{"", "INSERT STREAM INTO spark_catalog.default.logs SELECT * FROM src", "logs_stream"},
		{"", "INSERT STREAM INTO analytics.Logs SELECT * FROM src", "analytics.logs_stream"},
		{"analytics", "INSERT STREAM INTO logs SELECT * FROM src", "analytics.logs_stream"},
		{"", "INSERT STREAM INTO logs SELECT * FROM src WITH (name = 'Ingest')", "Ingest"},
		{"", "INSERT STREAM INTO logs SELECT * FROM src WITH (NAME = 'ingest', trigger = '1 second')", "ingest"},
		{"", "INSERT STREAM INTO logs SELECT * FROM src WITH (name = '')", "logs_stream"},
		{"", "INSERT STREAM INTO logs SELECT * FROM src WITH (name = 'a', name = 'b')", "b"},
	} {
		db := tc.use
		if db == "" {
			db = "default"
		}
		mustExec(t, eng, "USE "+db)
		st, err := sql.ParseOne(tc.stmt)
		if err != nil {
			t.Fatalf("%s: %v", tc.stmt, err)
		}
		if got := eng.StreamName(t.Context(), st.(*sql.InsertStream)); got != tc.want {
			t.Errorf("USE %s; %s: StreamName = %q, want %q", db, tc.stmt, got, tc.want)
		}
	}
}

// TestStreamNameInSession: a session's USE qualifies the table, not the
// engine's (the server's async queries name the stream so).
func TestStreamNameInSession(t *testing.T) {
	eng := newTestEngine(t)
	mustExec(t, eng, "CREATE DATABASE analytics")
	sess := eng.NewSession("")
	if _, err := sess.Execute(t.Context(), "USE analytics"); err != nil {
		t.Fatal(err)
	}
	st, err := sql.ParseOne("INSERT STREAM INTO Logs SELECT * FROM src")
	if err != nil {
		t.Fatal(err)
	}
	if got := eng.StreamName(WithSession(t.Context(), sess), st.(*sql.InsertStream)); got != "analytics.logs_stream" {
		t.Errorf("in the session: %q", got)
	}
	if got := eng.StreamName(t.Context(), st.(*sql.InsertStream)); got != "logs_stream" {
		t.Errorf("outside it: %q", got)
	}
}
