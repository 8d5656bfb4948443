package server

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestAsyncRequestValidation: a submission is checked as the plugin's
// CreateAsyncQueryRequestConverter checks it, with its status codes and
// words; an unknown query id is its 400 AsyncQueryNotFoundException.
func TestAsyncRequestValidation(t *testing.T) {
	f := newFixture(t, 1)
	type errReply struct {
		Error struct {
			Reason  string `json:"reason"`
			Details string `json:"details"`
			Type    string `json:"type"`
		} `json:"error"`
		Status int `json:"status"`
	}
	for _, c := range []struct {
		body    map[string]any
		details string
	}{
		{map[string]any{"lang": "sql", "query": "SELECT 1"}, "Error while parsing the request body: Datasource can't be null"},
		{map[string]any{"datasource": "sluice", "query": "SELECT 1"}, "Error while parsing the request body: lang can't be null"},
		{map[string]any{"datasource": "sluice", "lang": "sql"}, "Error while parsing the request body: Query can't be null"},
		{map[string]any{"datasource": "sluice", "lang": "sparksql", "query": "SELECT 1"}, "Error while parsing the request body: No LangType with text sparksql found"},
		{map[string]any{"datasource": "sluice", "lang": "sql", "query": "SELECT 1", "extra": 1}, "Error while parsing the request body: Unknown field: extra"},
		{map[string]any{"datasource": 7, "lang": "sql", "query": "SELECT 1"}, "Error while parsing the request body: datasource must be a string"},
	} {
		var r errReply
		if err := json.Unmarshal(f.post(AsyncQueryPath, c.body, http.StatusBadRequest), &r); err != nil {
			t.Fatal(err)
		}
		if r.Status != 400 || r.Error.Type != "IllegalArgumentException" || r.Error.Reason != "Invalid Request" || r.Error.Details != c.details {
			t.Errorf("%v: %+v, want %q", c.body, r, c.details)
		}
	}
	// lang is read in any case, as LangType.fromString does.
	f.post(AsyncQueryPath, map[string]any{"datasource": "sluice", "lang": "PPL", "query": "source=t | head 1"}, http.StatusCreated)
	f.post(AsyncQueryPath, map[string]any{"datasource": "sluice", "lang": "promql", "query": "up"}, http.StatusBadRequest)

	resp, err := http.Get(f.http.URL + AsyncQueryPath + "/nosuchquery0000")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r errReply
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 400 || r.Error.Type != "AsyncQueryNotFoundException" || r.Error.Details != "QueryId: nosuchquery0000 not found" {
		t.Errorf("unknown id: %d %+v", resp.StatusCode, r)
	}
}
