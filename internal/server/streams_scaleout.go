package server

import (
	"sort"

	"sluice/internal/job"
)

// ScaleOutJSON is a stream shared by workers (workers = N), as this
// server sees it: its own worker slot, and for a keyed stream the
// partitions and who holds them (docs/scale-out.md). Nil for a stream
// this server runs alone.
type ScaleOutJSON struct {
	// Worker is this server's slot (0-based) of Workers.
	Worker  int `json:"worker"`
	Workers int `json:"workers"`
	// Partitions is the keyed stream's partition count (0 unkeyed);
	// Mine are those this server owns, Owners each worker's count, Live
	// the workers alive.
	Partitions int             `json:"partitions"`
	Mine       []int           `json:"mine"`
	Owners     []PartOwnerJSON `json:"owners"`
	Live       int             `json:"live_workers"`
	// Queue is the notification queue's backlog, when there is one.
	Queue *QueueJSON `json:"queue,omitempty"`
}

// PartOwnerJSON is one worker's share of the partitions.
type PartOwnerJSON struct {
	Worker     string `json:"worker"`
	Partitions int    `json:"partitions"`
	// Self is this server.
	Self bool `json:"self"`
}

// QueueJSON is a notification queue's backlog.
type QueueJSON struct {
	Held    int64 `json:"held"`
	Pending int64 `json:"pending"`
	Unacked int64 `json:"unacked"`
}

func scaleOutJSON(st job.Status) *ScaleOutJSON {
	if st.Slots == 0 && st.Keyed == nil {
		return nil
	}
	out := &ScaleOutJSON{Worker: st.Slot, Workers: st.Slots, Mine: []int{}, Owners: []PartOwnerJSON{}}
	if k := st.Keyed; k != nil {
		out.Partitions, out.Live = k.Parts, k.Live
		out.Mine = append(out.Mine, k.Mine...)
		sort.Ints(out.Mine)
		for w, n := range k.Owned {
			out.Owners = append(out.Owners, PartOwnerJSON{Worker: w, Partitions: n, Self: w == k.Worker})
		}
		sort.Slice(out.Owners, func(i, j int) bool { return out.Owners[i].Worker < out.Owners[j].Worker })
	}
	if q := st.Queue; q != nil {
		out.Queue = &QueueJSON{Held: q.Held, Pending: q.Pending, Unacked: q.Unacked}
	}
	return out
}
