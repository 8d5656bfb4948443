package server

import (
	"encoding/json"
	"testing"
	"time"
)

// TestStreamPhasesAPI: the last epoch's duration by phase and each
// stateful operator's rows and bytes are in the streams API, the
// history holds the last epochs' phases and rates, and a stopped stream
// still shows them after a restart (they are kept in its last commit).
func TestStreamPhasesAPI(t *testing.T) {
	f := newFixture(t, 6)
	f.sql(200, "CREATE MATERIALIZED VIEW names AS SELECT name, count(*) AS n FROM t GROUP BY name WITH (auto_refresh = true, refresh_interval = '20 milliseconds')")
	f.waitCount("names", 6, 10*time.Second)
	var v StreamJSON
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if v = f.apiStream("names"); v.LastEpoch != nil && len(v.StateOps) == 1 {
			break
		}
	}
	check := func(when string, v StreamJSON) {
		t.Helper()
		if v.LastEpoch == nil || len(v.LastEpoch.PhasesMS) != 5 {
			t.Fatalf("%s: last epoch %+v, want 5 phases", when, v.LastEpoch)
		}
		sum := 0.0
		for _, ph := range []string{"listing", "reading", "operators", "sink", "checkpoint"} {
			d, ok := v.LastEpoch.PhasesMS[ph]
			if !ok || d < 0 {
				t.Errorf("%s: phase %s is %v (%v)", when, ph, d, ok)
			}
			sum += d
		}
		if sum <= 0 || sum > v.LastEpoch.DurationMS+0.01 {
			t.Errorf("%s: phases add up to %.3f ms of an epoch of %.3f ms", when, sum, v.LastEpoch.DurationMS)
		}
		if len(v.StateOps) != 1 || v.StateOps[0].Rows == nil || *v.StateOps[0].Rows != 6 || v.StateOps[0].Bytes <= 0 || v.StateOps[0].Kind == "" {
			raw, _ := json.Marshal(v.StateOps)
			t.Errorf("%s: state operators %s, want one holding 6 groups", when, raw)
		}
	}
	check("running", v)

	// The history hears of an epoch a moment after its commit.
	var h HistoryJSON
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if err := json.Unmarshal(f.do("GET", APIStreamsPath+"/names/history", 200), &h); err != nil {
			t.Fatal(err)
		}
		if len(h.Epochs.Epoch) > 0 {
			break
		}
	}
	e := h.Epochs
	if n := len(e.Epoch); n == 0 || len(e.Time) != n || len(e.SinkMS) != n || len(e.CheckpointM) != n || len(e.InputRate) != n || len(e.ProcessRate) != n {
		t.Fatalf("history epochs: %+v", e)
	}
	if e.Epoch[0] != 0 || e.ProcessRate[0] <= 0 || e.CheckpointM[0] <= 0 {
		t.Errorf("the first epoch in the history: %+v", e)
	}

	f.post(APIStreamsPath+"/names/stop", nil, 200)
	f.close()
	f.open()
	check("after a restart", f.apiStream("names"))
}
