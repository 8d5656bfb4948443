package server

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"sluice/internal/engine"
	"sluice/internal/job"
	"sluice/internal/stream"
)

// MetricsPath serves the Prometheus text format.
const MetricsPath = "/metrics"

// metrics are the server's Prometheus metrics, in a registry of its own
// (two servers in one test process do not share counters). Counters and
// histograms move with each committed epoch (observe); gauges (lag,
// watermark, freshness, running) are read from the engine at each
// scrape. Labels are the stream's name (a view's stream is mv_<view>), a
// checked identifier, and fixed words, slot numbers or worker names
// (host-pid-random): never an option, a location or a secret.
type metrics struct {
	reg *prometheus.Registry

	epochs, filesIn, bytesIn, rowsIn, rowsOut, lateRows, badRows *prometheus.CounterVec
	sinkRetries, deadLetters, reconciled                         *prometheus.CounterVec
	epochDuration, checkpointWrite                               *prometheus.HistogramVec

	mu sync.Mutex
	// maxEvent is each stream's newest committed event time (µs), kept
	// across its restarts in this process for the freshness gauge.
	maxEvent map[string]int64
}

func newMetrics(eng func() *engine.Engine, queries func() map[string]int) *metrics {
	counter := func(name, help string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sluice", Name: name, Help: help}, []string{"stream"})
	}
	m := &metrics{
		reg:         prometheus.NewRegistry(),
		epochs:      counter("stream_epochs_total", "Epochs committed."),
		filesIn:     counter("stream_input_files_total", "Input files read by committed epochs."),
		bytesIn:     counter("stream_input_bytes_total", "Input bytes read by committed epochs."),
		rowsIn:      counter("stream_input_rows_total", "Input rows read by committed epochs."),
		rowsOut:     counter("stream_output_rows_total", "Rows written to the sink by committed epochs."),
		lateRows:    counter("stream_late_rows_total", "Rows dropped as later than the watermark."),
		badRows:     counter("stream_bad_rows_total", "Malformed input rows dropped or dead-lettered by the source."),
		reconciled:  counter("stream_reconciled_files_total", "Input files that reconcile listings found and committed epochs read: their S3 event notifications were lost."),
		sinkRetries: counter("sink_retries_total", "Sink requests retried (sinks that count them: opensearch)."),
		deadLetters: counter("sink_dead_letters_total", "Rows the sink dead-lettered (sinks that count them: opensearch)."),
		epochDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "sluice", Name: "stream_epoch_duration_seconds",
			Help: "Time from planning an epoch to its commit.", Buckets: prometheus.ExponentialBuckets(0.005, 2, 14)}, []string{"stream"}),
		checkpointWrite: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "sluice", Name: "checkpoint_write_seconds",
			Help: "Time an epoch spent writing its checkpoint (offsets, state, commit).", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14)}, []string{"stream"}),
		maxEvent: map[string]int64{},
	}
	m.reg.MustRegister(m.epochs, m.filesIn, m.bytesIn, m.rowsIn, m.rowsOut, m.lateRows, m.badRows, m.reconciled, m.sinkRetries, m.deadLetters,
		m.epochDuration, m.checkpointWrite,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		&gaugeCollector{m: m, eng: eng, queries: queries})
	return m
}

// observe counts one committed epoch.
func (m *metrics) observe(p stream.Progress) {
	n := p.Name
	m.epochs.WithLabelValues(n).Inc()
	m.filesIn.WithLabelValues(n).Add(float64(p.Files))
	m.bytesIn.WithLabelValues(n).Add(float64(p.Bytes))
	m.rowsIn.WithLabelValues(n).Add(float64(p.RowsIn))
	m.rowsOut.WithLabelValues(n).Add(float64(p.RowsOut))
	m.lateRows.WithLabelValues(n).Add(float64(p.LateRows))
	m.badRows.WithLabelValues(n).Add(float64(p.BadRows))
	m.reconciled.WithLabelValues(n).Add(float64(p.ReconciledFiles))
	m.sinkRetries.WithLabelValues(n).Add(float64(p.SinkRetries))
	m.deadLetters.WithLabelValues(n).Add(float64(p.DeadLetters))
	m.epochDuration.WithLabelValues(n).Observe(p.Duration.Seconds())
	m.checkpointWrite.WithLabelValues(n).Observe(p.CheckpointWrite.Seconds())
	if p.MaxEventTime != 0 {
		m.mu.Lock()
		if p.MaxEventTime > m.maxEvent[n] {
			m.maxEvent[n] = p.MaxEventTime
		}
		m.mu.Unlock()
	}
}

func (m *metrics) newestEvent(stream string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.maxEvent[stream]
}

func (s *Server) metricsRoutes() {
	// Read users (a scraper's token) may scrape: metrics hold no secrets.
	s.readRoute("GET "+MetricsPath, promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{ErrorLog: slogPrinter{s.log}}).ServeHTTP)
}

// gaugeCollector reads the gauges from the engine at scrape time.
type gaugeCollector struct {
	m       *metrics
	eng     func() *engine.Engine
	queries func() map[string]int
}

var (
	descRunning      = prometheus.NewDesc("sluice_stream_running", "1 while the stream or view runs in this server, else 0.", []string{"stream", "kind"}, nil)
	descRetrying     = prometheus.NewDesc("sluice_stream_retrying", "1 while the stream waits to run again after a transient failure, else 0.", []string{"stream"}, nil)
	descRetries      = prometheus.NewDesc("sluice_stream_retries", "Retries of the stream since it started in this server.", []string{"stream"}, nil)
	descQueueDown    = prometheus.NewDesc("sluice_stream_queue_unreachable_total", "Runs of the stream that failed because its queue could not be reached, since it started in this server.", []string{"stream"}, nil)
	descLagFiles     = prometheus.NewDesc("sluice_stream_lag_files", "Input files waiting beyond the rate limits after the last epoch.", []string{"stream"}, nil)
	descLagBytes     = prometheus.NewDesc("sluice_stream_lag_bytes", "Input bytes waiting beyond the rate limits after the last epoch.", []string{"stream"}, nil)
	descWatermark    = prometheus.NewDesc("sluice_stream_watermark_seconds", "The stream's watermark, Unix seconds (streams with event time).", []string{"stream"}, nil)
	descFreshness    = prometheus.NewDesc("sluice_stream_freshness_seconds", "Now minus the newest committed event time (streams with event time).", []string{"stream"}, nil)
	descWorkerInfo   = prometheus.NewDesc("sluice_stream_worker_info", "1 for the worker slot this server runs of a stream shared by workers.", []string{"stream", "worker", "workers"}, nil)
	descWorkerEpochs = prometheus.NewDesc("sluice_stream_worker_epochs", "Epochs this server's worker slot committed since it started here.", []string{"stream", "worker"}, nil)
	descWorkerRows   = prometheus.NewDesc("sluice_stream_worker_input_rows", "Input rows this server's worker slot read since it started here.", []string{"stream", "worker"}, nil)
	descQueueMsgs    = prometheus.NewDesc("sluice_stream_queue_messages_total", "Notification queue messages and the files they named, by what became of them, since the stream started here.", []string{"stream", "kind"}, nil)
	descQueueHeld    = prometheus.NewDesc("sluice_stream_queue_held", "Queue messages waiting for their epoch to commit.", []string{"stream"}, nil)
	descQueueBacklog = prometheus.NewDesc("sluice_stream_queue_backlog", "Queue messages not yet acknowledged, as of the last poll: pending (never delivered) or unacked (delivered).", []string{"stream", "state"}, nil)
	descPartsOwned   = prometheus.NewDesc("sluice_stream_partitions_owned", "Partitions of a keyed stream each worker holds, as this server sees the leases.", []string{"stream", "worker"}, nil)
	descPartsTotal   = prometheus.NewDesc("sluice_stream_partitions_total", "Partitions of a keyed stream shared by workers.", []string{"stream"}, nil)
	descLiveWorkers  = prometheus.NewDesc("sluice_stream_live_workers", "Workers alive on a keyed stream, as this server sees them.", []string{"stream"}, nil)
	descKeyedEvents  = prometheus.NewDesc("sluice_stream_keyed_total", "A keyed stream's owner in this server since it started: epochs, partials folded, duplicates and late partials dropped, rows out, takeovers, handbacks, file ids forgotten.", []string{"stream", "kind"}, nil)
	descKeyedFileIDs = prometheus.NewDesc("sluice_stream_keyed_file_ids", "File ids a keyed stream's owner in this server remembers to drop duplicate partials (trimmed as the file queue's ack floor passes them).", []string{"stream"}, nil)
	descKeyedWM      = prometheus.NewDesc("sluice_stream_keyed_watermark_seconds", "The keyed stream's watermark over all partitions, Unix seconds.", []string{"stream"}, nil)
	descQueries      = prometheus.NewDesc("sluice_async_queries", "Async queries kept, by status.", []string{"status"}, nil)
)

func (c *gaugeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descRunning, descRetrying, descRetries, descQueueDown, descLagFiles, descLagBytes, descWatermark, descFreshness, descQueries,
		descWorkerInfo, descWorkerEpochs, descWorkerRows, descQueueMsgs, descQueueHeld, descQueueBacklog,
		descPartsOwned, descPartsTotal, descLiveWorkers, descKeyedEvents, descKeyedFileIDs, descKeyedWM} {
		ch <- d
	}
}

func (c *gaugeCollector) Collect(ch chan<- prometheus.Metric) {
	if q := c.queries; q != nil {
		for st, n := range q() {
			ch <- prometheus.MustNewConstMetric(descQueries, prometheus.GaugeValue, float64(n), st)
		}
	}
	eng := c.eng()
	if eng == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	infos, err := eng.Streams(ctx)
	if err != nil {
		return
	}
	now := time.Now()
	for _, in := range infos {
		n, st := in.StreamName, in.Status
		running := 0.0
		if st.State == job.StateRunning {
			running = 1
		}
		ch <- prometheus.MustNewConstMetric(descRunning, prometheus.GaugeValue, running, n, in.Kind)
		retrying := 0.0
		if st.State == job.StateRetrying {
			retrying = 1
		}
		ch <- prometheus.MustNewConstMetric(descRetrying, prometheus.GaugeValue, retrying, n)
		ch <- prometheus.MustNewConstMetric(descRetries, prometheus.GaugeValue, float64(st.Attempts), n)
		if st.Queue != nil || st.QueueUnreachable > 0 {
			ch <- prometheus.MustNewConstMetric(descQueueDown, prometheus.CounterValue, float64(st.QueueUnreachable), n)
		}
		ch <- prometheus.MustNewConstMetric(descLagFiles, prometheus.GaugeValue, float64(st.Last.LagFiles), n)
		ch <- prometheus.MustNewConstMetric(descLagBytes, prometheus.GaugeValue, float64(st.Last.LagBytes), n)
		if wm := st.Last.Watermark; wm != 0 && wm != stream.NoWatermark {
			ch <- prometheus.MustNewConstMetric(descWatermark, prometheus.GaugeValue, float64(wm)/1e6, n)
		}
		if ev := max(st.Last.MaxEventTime, c.m.newestEvent(n)); ev != 0 {
			ch <- prometheus.MustNewConstMetric(descFreshness, prometheus.GaugeValue, freshness(now, ev).Seconds(), n)
		}
		scaleOut(ch, n, st)
	}
}

// scaleOut sends a shared stream's worker slot, queue and partition
// ownership: the numbers behind DESCRIBE STREAM's worker, queue_ and
// keyed_ rows, from the same status.
func scaleOut(ch chan<- prometheus.Metric, n string, st job.Status) {
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, append([]string{n}, labels...)...)
	}
	if st.Slots > 0 && st.State == job.StateRunning {
		slot := strconv.Itoa(st.Slot)
		gauge(descWorkerInfo, 1, slot, strconv.Itoa(st.Slots))
		gauge(descWorkerEpochs, float64(st.Epochs), slot)
		gauge(descWorkerRows, float64(st.RowsIn), slot)
	}
	if q := st.Queue; q != nil {
		for _, c := range q.Counts {
			ch <- prometheus.MustNewConstMetric(descQueueMsgs, prometheus.CounterValue, float64(c.N), n, c.Kind)
		}
		gauge(descQueueHeld, float64(q.Held))
		gauge(descQueueBacklog, float64(q.Pending), "pending")
		gauge(descQueueBacklog, float64(q.Unacked), "unacked")
	}
	if k := st.Keyed; k != nil {
		gauge(descPartsTotal, float64(k.Parts))
		gauge(descLiveWorkers, float64(k.Live))
		for w, c := range k.Owned {
			gauge(descPartsOwned, float64(c), w)
		}
		for _, c := range []struct {
			kind string
			n    int64
		}{{"epochs", k.Stats.Epochs}, {"partials", k.Stats.Partials}, {"duplicates", k.Stats.Duplicates}, {"late", k.Stats.Late},
			{"rows_out", k.Stats.RowsOut}, {"takeovers", k.Stats.Takeovers}, {"handbacks", k.Stats.Handbacks},
			{"forgotten", k.Stats.Forgotten}} {
			ch <- prometheus.MustNewConstMetric(descKeyedEvents, prometheus.CounterValue, float64(c.n), n, c.kind)
		}
		gauge(descKeyedFileIDs, float64(k.Stats.FileIDs))
		if k.Watermark != 0 && k.Watermark != stream.NoWatermark {
			gauge(descKeyedWM, float64(k.Watermark)/1e6)
		}
	}
}

// freshness is now minus the newest committed event time (µs).
func freshness(now time.Time, newestEvent int64) time.Duration {
	return now.Sub(time.UnixMicro(newestEvent))
}

// slogPrinter is promhttp's error log.
type slogPrinter struct {
	log interface{ Error(string, ...any) }
}

func (p slogPrinter) Println(v ...any) { p.log.Error("serving metrics", "error", v) }
