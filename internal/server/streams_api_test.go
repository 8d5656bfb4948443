package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func (f *fixture) apiStream(name string) StreamJSON {
	f.t.Helper()
	var s StreamJSON
	if err := json.Unmarshal(f.do("GET", APIStreamsPath+"/"+name, 200), &s); err != nil {
		f.t.Fatal(err)
	}
	return s
}

// TestStreamsAPI: /api/v1/streams lists streams and views with live
// progress; start and stop move them; /api/v1/tables lists the tables
// without their options.
func TestStreamsAPI(t *testing.T) {
	f := newFixture(t, 4)
	f.sql(200, "CREATE TABLE out (id BIGINT, name STRING) USING json LOCATION '"+f.out+"/' OPTIONS (compression 'gzip')")
	f.sql(200, "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'feed', trigger = '20 milliseconds')")
	f.sql(200, "CREATE MATERIALIZED VIEW mv AS SELECT id FROM t WITH (auto_refresh = true, refresh_interval = '20 milliseconds')")
	f.waitCount("out", 4, 10*time.Second)
	f.waitCount("mv", 4, 10*time.Second)

	var list struct{ Streams []StreamJSON }
	if err := json.Unmarshal(f.do("GET", APIStreamsPath, 200), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Streams) != 2 || list.Streams[0].Name != "feed" || list.Streams[1].Name != "mv" {
		t.Fatalf("streams: %+v", list.Streams)
	}
	var s StreamJSON
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if s = f.apiStream("feed"); s.RowsOut == 4 {
			break
		}
	}
	if s.Kind != "stream" || s.State != "running" || s.Desired != "running" || s.Sink != "out" || s.RowsIn != 4 || s.RowsOut != 4 ||
		s.Epoch == nil || s.LastEpoch == nil || s.LastEpoch.Files != 1 || s.Started == nil || s.Watermark != nil || s.FreshnessSeconds != nil {
		t.Fatalf("feed: %+v", s)
	}
	// The sink shows rows at its flush, a moment before the commit counts them.
	var v StreamJSON
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if v = f.apiStream("mv"); v.RowsOut == 4 {
			break
		}
	}
	if v.Kind != "view" || v.Stream != "mv_mv" || v.State != "running" || v.RowsOut != 4 {
		t.Fatalf("mv: %+v", v)
	}

	var stopped StreamJSON
	if err := json.Unmarshal(f.post(APIStreamsPath+"/feed/stop", nil, 200), &stopped); err != nil {
		t.Fatal(err)
	}
	if stopped.State == "running" || stopped.Desired != "stopped" {
		t.Fatalf("after stop: %+v", stopped)
	}
	f.post(APIStreamsPath+"/mv/stop", nil, 200)
	if v := f.apiStream("mv"); v.State == "running" || v.Desired != "stopped" {
		t.Fatalf("mv after stop: %+v", v)
	}
	// A restart: the stopped stream reports its last commit.
	f.close()
	f.open()
	if s := f.apiStream("feed"); s.State != "stopped" || s.Epoch == nil || *s.Epoch != 0 || s.RowsIn != 4 {
		t.Fatalf("feed after a restart: %+v", s)
	}
	writeFile(t, f.in+"/part1.json", `{"id": 100, "name": "late"}`+"\n")
	if s := f.apiStream("feed"); s.State != "stopped" {
		t.Fatalf("%+v", s)
	}
	f.post(APIStreamsPath+"/feed/start", nil, 200)
	f.post(APIStreamsPath+"/mv/start", nil, 200)
	f.waitCount("out", 5, 10*time.Second)
	f.waitCount("mv", 5, 10*time.Second)
	if s := f.apiStream("feed"); s.State != "running" {
		t.Fatalf("after start: %+v", s)
	}
	f.do("GET", APIStreamsPath+"/nope", 404)
	f.post(APIStreamsPath+"/nope/start", nil, 404)

	var tables struct{ Tables []TableJSON }
	raw := f.do("GET", APITablesPath, 200)
	if err := json.Unmarshal(raw, &tables); err != nil {
		t.Fatal(err)
	}
	byName := map[string]TableJSON{}
	for _, tb := range tables.Tables {
		byName[tb.Name] = tb
	}
	if tb := byName["t"]; tb.Using != "json" || len(tb.Columns) != 4 || tb.Columns[0].Name != "id" || tb.Columns[0].Type != "BIGINT" || tb.Managed {
		t.Fatalf("table t: %+v", tb)
	}
	if tb := byName["mv"]; !tb.Managed || tb.Using != "index" {
		t.Fatalf("table mv: %+v", tb)
	}
	if strings.Contains(string(raw), "gzip") {
		t.Fatalf("tables show options: %s", raw)
	}
	if got := redactLocation("https://user:secret@search.example:9200/logs?x=y"); got != "https://search.example:9200/logs" {
		t.Fatalf("redactLocation: %s", got)
	}
}
