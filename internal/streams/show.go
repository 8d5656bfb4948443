package streams

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"sluice/internal/stream"
	"sluice/internal/types"
)

// showStreams is SHOW STREAMS: every stream of the catalog with its state.
func (m *Streams) showStreams(ctx context.Context) (*Result, error) {
	objs, err := m.h.Catalog().Objects("stream")
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, o := range objs {
		var spec Spec
		_ = json.Unmarshal(o.Options, &spec)
		st := m.streamStatus(ctx, o, spec)
		last := ""
		if st.Epochs > 0 {
			last = strconv.FormatInt(st.Last.Epoch, 10)
		}
		rows = append(rows, []string{o.Name, st.State, spec.Table, st.Trigger, last, st.Checkpoint})
	}
	return stringRows([]string{"name", "state", "sink", "trigger", "last_epoch", "checkpoint"}, rows), nil
}

// describeStream is DESCRIBE STREAM: one stream's definition and status,
// one key and value a row.
func (m *Streams) describeStream(ctx context.Context, name string) (*Result, error) {
	o, spec, err := m.streamDef(name)
	if err != nil {
		return nil, err
	}
	st := m.streamStatus(ctx, o, spec)
	wm := ""
	if st.Last.Watermark != 0 && st.Last.Watermark != stream.NoWatermark {
		wm = types.FormatTimestamp(st.Last.Watermark)
	}
	kv := [][]string{
		{"name", o.Name},
		{"query", o.SQL},
		{"state", st.State},
		{"sink", spec.Table},
		{"trigger", st.Trigger},
		{"checkpoint", st.Checkpoint},
		{"epochs", strconv.FormatInt(st.Epochs, 10)},
		{"last_epoch", strconv.FormatInt(st.Last.Epoch, 10)},
		{"last_epoch_files", strconv.Itoa(st.Last.Files)},
		{"last_epoch_bytes", strconv.FormatInt(st.Last.Bytes, 10)},
		{"last_epoch_rows_in", strconv.FormatInt(st.Last.RowsIn, 10)},
		{"last_epoch_rows_out", strconv.FormatInt(st.Last.RowsOut, 10)},
		{"rows_in", strconv.FormatInt(st.RowsIn, 10)},
		{"rows_out", strconv.FormatInt(st.RowsOut, 10)},
		{"last_epoch_bad_rows", strconv.FormatInt(st.Last.BadRows, 10)},
		{"bad_rows", strconv.FormatInt(st.BadRows, 10)},
		{"input_rate", fmt.Sprintf("%.1f", st.Last.InputRate)},
		{"processing_rate", fmt.Sprintf("%.1f", st.Last.ProcessRate)},
		{"watermark", wm},
		{"late_rows_dropped", strconv.FormatInt(max(st.LateRows, st.Last.LateRows), 10)},
		{"last_epoch_late_rows", strconv.FormatInt(st.Last.LateRows, 10)},
		{"lag_files", strconv.Itoa(st.Last.LagFiles)},
		{"lag_bytes", strconv.FormatInt(st.Last.LagBytes, 10)},
		{"last_error", st.LastError},
	}
	if st.Worker != "" {
		kv = append(kv, []string{"worker", st.Worker})
	}
	for _, r := range st.Source {
		kv = append(kv, []string{r[0], r[1]})
	}
	if st.Queue != nil || st.Reconciled > 0 {
		// Since the first epoch, across restarts (queue_reconciled is
		// since this process started).
		kv = append(kv, []string{"reconciled_files", strconv.FormatInt(st.Reconciled, 10)})
	}
	if st.Queue != nil || st.QueueUnreachable > 0 {
		kv = append(kv, []string{"queue_unreachable", strconv.FormatInt(st.QueueUnreachable, 10)})
	}
	if !st.Started.IsZero() {
		kv = append(kv, []string{"started", st.Started.Format("2006-01-02 15:04:05")})
	}
	return stringRows([]string{"key", "value"}, kv), nil
}
