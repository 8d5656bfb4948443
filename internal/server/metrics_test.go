package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape fetches /metrics and parses it with Prometheus' own text parser.
func (f *fixture) scrape() map[string]*dto.MetricFamily {
	f.t.Helper()
	resp, err := http.Get(f.http.URL + MetricsPath)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		f.t.Fatalf("GET /metrics: %d", resp.StatusCode)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		f.t.Fatalf("parsing /metrics: %v", err)
	}
	return fams
}

// value is the metric's value for stream (counter, gauge, or a
// histogram's sample count); -1 when absent.
func value(fams map[string]*dto.MetricFamily, name, stream string) float64 {
	fam := fams[name]
	if fam == nil {
		return -1
	}
	for _, m := range fam.Metric {
		for _, l := range m.Label {
			if l.GetName() == "stream" && l.GetValue() == stream {
				switch {
				case m.Counter != nil:
					return m.Counter.GetValue()
				case m.Gauge != nil:
					return m.Gauge.GetValue()
				case m.Histogram != nil:
					return float64(m.Histogram.GetSampleCount())
				}
			}
		}
	}
	return -1
}

// waitMetric scrapes until the series reaches want: a sink shows its rows
// at its flush, a moment before the epoch's commit counts them.
func (f *fixture) waitMetric(name, stream string, want float64) map[string]*dto.MetricFamily {
	f.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		m := f.scrape()
		if got := value(m, name, stream); got >= want || time.Now().After(deadline) {
			return m
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestMetrics scrapes /metrics while a stream with event time runs and
// checks the per-stream series move with it.
func TestMetrics(t *testing.T) {
	f := newFixture(t, 0)
	ev := time.Now().Add(-time.Hour).UTC()
	line := func(id int, at time.Time) string {
		return fmt.Sprintf(`{"id": %d, "ts": "%s", "bad": 1}`+"\n", id, at.Format("2006-01-02 15:04:05"))
	}
	writeFile(t, f.in+"/e/part0.json", line(1, ev)+line(2, ev.Add(time.Minute))+"not json\n")
	f.sql(200, "CREATE TABLE ev (id BIGINT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 10 MINUTES) USING json LOCATION '"+f.in+"/e/' OPTIONS (mode 'DROPMALFORMED')")
	f.sql(200, "CREATE TABLE out (id BIGINT, ts TIMESTAMP) USING json LOCATION '"+f.out+"/'")
	before := f.scrape()
	if value(before, "sluice_stream_input_rows_total", "feed") != -1 {
		t.Fatal("a stream that never ran has series")
	}
	if before["go_goroutines"] == nil || before["process_cpu_seconds_total"] == nil {
		t.Fatal("no Go runtime or process metrics")
	}
	f.sql(200, "INSERT STREAM INTO out SELECT id, ts FROM ev WITH (name = 'feed', trigger = '20 milliseconds')")
	f.waitCount("out", 2, 10*time.Second)
	m := f.waitMetric("sluice_stream_epochs_total", "feed", 1)
	checks := map[string]float64{
		"sluice_stream_input_rows_total":  2,
		"sluice_stream_output_rows_total": 2,
		"sluice_stream_input_files_total": 1,
		"sluice_stream_running":           1,
		"sluice_stream_lag_files":         0,
	}
	for name, want := range checks {
		if got := value(m, name, "feed"); got != want {
			t.Errorf("%s{stream=feed} = %v, want %v", name, got, want)
		}
	}
	if got := value(m, "sluice_stream_input_bytes_total", "feed"); got <= 0 {
		t.Errorf("input bytes %v", got)
	}
	if got := value(m, "sluice_stream_bad_rows_total", "feed"); got != 1 {
		t.Errorf("bad rows %v, want 1", got)
	}
	if got := value(m, "sluice_stream_epoch_duration_seconds", "feed"); got < 1 {
		t.Errorf("epoch duration histogram has %v samples", got)
	}
	if got := value(m, "sluice_checkpoint_write_seconds", "feed"); got < 1 {
		t.Errorf("checkpoint write histogram has %v samples", got)
	}
	// Freshness: now minus the newest event (an hour and a minute ago, less a minute).
	if got := value(m, "sluice_stream_freshness_seconds", "feed"); got < 3500 || got > 3700 {
		t.Errorf("freshness %v s, want about 3540", got)
	}
	// The first epoch ran before any watermark (Spark's rule: progress
	// shows the watermark the epoch used).
	if got := value(m, "sluice_stream_watermark_seconds", "feed"); got != -1 {
		t.Errorf("watermark of the first epoch %v, want none", got)
	}

	// More data: the counters move. Row 4 is older than the watermark,
	// but a stateless stream keeps late rows (Spark's rule: only stateful
	// operators drop them), so the late series stays at 0.
	writeFile(t, f.in+"/e/part1.json", line(3, time.Now().UTC())+line(4, ev.Add(-time.Hour)))
	f.waitCount("out", 4, 10*time.Second)
	m2 := f.waitMetric("sluice_stream_epochs_total", "feed", 2)
	if got := value(m2, "sluice_stream_input_rows_total", "feed"); got != 4 {
		t.Errorf("input rows after more data: %v, want 4", got)
	}
	if got := value(m2, "sluice_stream_late_rows_total", "feed"); got != 0 {
		t.Errorf("late rows %v, want 0", got)
	}
	if got := value(m2, "sluice_stream_freshness_seconds", "feed"); got > 60 {
		t.Errorf("freshness after a fresh event: %v s", got)
	}
	wantWM := float64(ev.Add(time.Minute - 10*time.Minute).Unix())
	if got := value(m2, "sluice_stream_watermark_seconds", "feed"); got != wantWM {
		t.Errorf("watermark %v, want %v", got, wantWM)
	}
	if got := value(m2, "sluice_stream_epochs_total", "feed"); got < 2 {
		t.Errorf("epochs %v", got)
	}
	f.sql(200, "STOP STREAM feed")
	if got := value(f.scrape(), "sluice_stream_running", "feed"); got != 0 {
		t.Errorf("running after STOP STREAM: %v", got)
	}
	// No label carries a location or an option value.
	for _, fam := range m2 {
		for _, mm := range fam.Metric {
			for _, l := range mm.Label {
				if strings.Contains(l.GetValue(), "/") {
					t.Errorf("%s has label %s=%q", fam.GetName(), l.GetName(), l.GetValue())
				}
			}
		}
	}
}
