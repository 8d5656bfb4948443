package server

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStreamPlanAndDeadLetters: a read user gets a stream's plan (its
// EXPLAIN, with the state ids) and a view's, and the bad rows its source
// kept in dead_letter_location with file, line and error; a stream
// without one answers an empty list, an unknown one 404.
func TestStreamPlanAndDeadLetters(t *testing.T) {
	f := newAuthFixture(t, nil)
	dl := filepath.Join(f.dir, "dead")
	writeFile(t, filepath.Join(f.dir, "nums", "part0.json"), `{"v": "1"}`+"\n"+`{"v": "x"}`+"\n"+`not json`+"\n"+`{"v": "3"}`+"\n")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE nums (v STRING) USING json LOCATION '"+filepath.Join(f.dir, "nums")+"/' OPTIONS (mode 'DROPMALFORMED', dead_letter_location '"+dl+"/')")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE numsout (n BIGINT) USING json LOCATION '"+filepath.Join(f.dir, "numsout")+"/'")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "INSERT STREAM INTO numsout SELECT CAST(v AS BIGINT) AS n FROM nums WITH (name = 'nums_feed', trigger = '50 milliseconds')")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE MATERIALIZED VIEW names AS SELECT name, count(*) AS n FROM t GROUP BY name WITH (auto_refresh = true, refresh_interval = '500 milliseconds')")

	var dead struct {
		Location string
		Rows     []struct {
			File, Reason, Raw string
			Line              int64
		}
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err := json.Unmarshal(f.get(200, APIStreamsPath+"/nums_feed/dead_letters", "bob", "bob-pw"), &dead); err != nil {
			t.Fatal(err)
		}
		if len(dead.Rows) == 2 {
			break
		}
	}
	if len(dead.Rows) != 2 || dead.Location != dl+"/" {
		t.Fatalf("dead letters: %+v", dead)
	}
	// A malformed line has its line and text; a row failing above the
	// scan (the CAST) has its error.
	var malformed, cast bool
	for _, r := range dead.Rows {
		if !strings.HasSuffix(r.File, "part0.json") {
			t.Errorf("dead letter of another file: %+v", r)
		}
		malformed = malformed || r.Line == 3 && r.Raw == "not json" && r.Reason != ""
		cast = cast || strings.Contains(r.Reason, "cannot cast 'x' to BIGINT")
	}
	if !malformed || !cast {
		t.Errorf("dead letters: %+v, want line 3's text and the CAST's error", dead.Rows)
	}
	if err := json.Unmarshal(f.get(200, APIStreamsPath+"/nums_feed/dead_letters?limit=1", "bob", "bob-pw"), &dead); err != nil || len(dead.Rows) != 1 {
		t.Errorf("limit=1: %+v %v", dead, err)
	}
	f.get(400, APIStreamsPath+"/nums_feed/dead_letters?limit=x", "bob", "bob-pw")
	if err := json.Unmarshal(f.get(200, APIStreamsPath+"/names/dead_letters", "bob", "bob-pw"), &dead); err != nil || len(dead.Rows) != 0 || dead.Location != "" {
		t.Errorf("a view's dead letters: %+v %v", dead, err)
	}
	f.get(404, APIStreamsPath+"/nope/dead_letters", "bob", "bob-pw")
	f.get(401, APIStreamsPath+"/nums_feed/dead_letters", "", "")

	var plan struct{ Plan []string }
	for _, c := range []struct{ name, want string }{{"nums_feed", "Stream nums_feed"}, {"names", "[state "}} {
		if err := json.Unmarshal(f.get(200, APIStreamsPath+"/"+c.name+"/plan", "bob", "bob-pw"), &plan); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(plan.Plan, "\n"); !strings.Contains(got, "== Streaming Plan ==") || !strings.Contains(got, c.want) {
			t.Errorf("plan of %s: %s", c.name, got)
		}
	}
	f.get(404, APIStreamsPath+"/nope/plan", "bob", "bob-pw")
}

// get GETs path as user (user "": no credentials) and checks the status.
func (f *authFixture) get(status int, path, user, pw string) []byte {
	f.t.Helper()
	resp, body := get(f.t, f.url+path, user, pw, nil)
	if resp.StatusCode != status {
		f.t.Fatalf("GET %s as %q: %d, want %d: %s", path, user, resp.StatusCode, status, body)
	}
	return []byte(body)
}
