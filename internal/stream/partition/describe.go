package partition

import (
	"fmt"
	"strconv"
	"time"

	"sluice/internal/connector"
	"sluice/internal/stream"
)

// Describe is inner (the source's DESCRIBE STREAM rows, may be nil)
// with this process's partition ownership added: the keyed_ rows, and
// the same as numbers through connector.KeyedReporter.
func (k *Keyed) Describe(inner connector.StreamDescriber) connector.StreamDescriber {
	return describer{inner: inner, owner: k.Owner, worker: k.Worker, replicas: k.Replicas, kafka: k.Kafka}
}

// describer adds partition ownership to a source's DESCRIBE STREAM rows.
type describer struct {
	inner    connector.StreamDescriber
	owner    *Owner
	worker   string
	replicas string
	kafka    string
}

var (
	_ connector.StreamDescriber = describer{}
	_ connector.KeyedReporter   = describer{}
	_ connector.QueueReporter   = describer{}
)

func (d describer) StreamDescription() [][2]string {
	var rows [][2]string
	if d.inner != nil {
		rows = d.inner.StreamDescription()
	}
	mine, owners, live, wm, st := d.owner.Status()
	wmText := "none"
	if wm != stream.NoWatermark {
		wmText = time.UnixMicro(wm).UTC().Format("2006-01-02 15:04:05.000000")
	}
	rows = append(rows,
		[2]string{"keyed_worker", d.worker},
		[2]string{"keyed_partitions", fmt.Sprintf("%d of %d: %s", len(mine), d.owner.Parts, FormatParts(mine))},
		[2]string{"keyed_owners", FormatOwners(owners)},
		[2]string{"keyed_live_workers", strconv.Itoa(len(live))},
		[2]string{"keyed_watermark", wmText},
		[2]string{"keyed_stats", fmt.Sprintf("epochs %d, partials %d, duplicates %d, late %d, rows out %d, takeovers %d, handbacks %d, file ids %d, forgotten %d",
			st.Epochs, st.Partials, st.Duplicates, st.Late, st.RowsOut, st.Takeovers, st.Handbacks, st.FileIDs, st.Forgotten)},
	)
	if d.replicas != "" {
		rows = append(rows, [2]string{"keyed_replicas", d.replicas})
	}
	if d.kafka != "" {
		rows = append(rows, [2]string{"keyed_kafka", d.kafka})
	}
	return rows
}

func (d describer) KeyedStatus() connector.KeyedStatus {
	mine, owners, live, wm, st := d.owner.Status()
	owned := map[string]int{}
	for _, h := range owners {
		owned[h.Worker]++
	}
	owned[d.worker] = len(mine) // what this process holds, even none
	return connector.KeyedStatus{Worker: d.worker, Parts: d.owner.Parts, Mine: mine, Owned: owned, Live: len(live), Watermark: wm, Stats: st}
}

// QueueStatus is the inner source's.
func (d describer) QueueStatus() (connector.QueueStatus, bool) {
	if q, ok := d.inner.(connector.QueueReporter); ok {
		return q.QueueStatus()
	}
	return connector.QueueStatus{}, false
}
