package partition

import (
	"testing"

	"sluice/internal/connector"
)

// queueDescriber is a source's describer with a queue status.
type queueDescriber struct{}

func (queueDescriber) StreamDescription() [][2]string { return [][2]string{{"queue", "nats://x"}} }
func (queueDescriber) QueueStatus() (connector.QueueStatus, bool) {
	return connector.QueueStatus{Held: 3}, true
}

// TestDescribe: the source's rows come first, then the keyed_ rows; the
// keyed status counts this process even while it owns nothing, and the
// queue status is the source's.
func TestDescribe(t *testing.T) {
	k := &Keyed{Worker: "w1", Owner: &Owner{Parts: 4}}
	d := k.Describe(queueDescriber{})
	rows := d.StreamDescription()
	if len(rows) != 7 || rows[0][0] != "queue" || rows[1] != [2]string{"keyed_worker", "w1"} || rows[2] != [2]string{"keyed_partitions", "0 of 4: "} {
		t.Errorf("rows %v", rows)
	}
	ks := d.(connector.KeyedReporter).KeyedStatus()
	if ks.Worker != "w1" || ks.Parts != 4 || len(ks.Mine) != 0 || ks.Owned["w1"] != 0 || len(ks.Owned) != 1 {
		t.Errorf("keyed status %+v", ks)
	}
	if qs, ok := d.(connector.QueueReporter).QueueStatus(); !ok || qs.Held != 3 {
		t.Errorf("queue status %+v, %v", qs, ok)
	}
	k.Replicas = "stream sluice-s 3, stream sluice-s-wm 3, bucket sluice-s 3"
	if rows := k.Describe(nil).StreamDescription(); rows[len(rows)-1] != [2]string{"keyed_replicas", k.Replicas} {
		t.Errorf("last row %v, want keyed_replicas", rows[len(rows)-1])
	}
	if _, ok := k.Describe(nil).(connector.QueueReporter).QueueStatus(); ok {
		t.Error("queue status without a source")
	}
}
