package stream

import "sluice/internal/connector"

// sinkGroup is what the sink sees as one epoch: the id it is told and
// the splits whose output goes under it.
type sinkGroup struct {
	id     int64
	splits []connector.Split
}

// sinkGroups cuts an epoch's splits into the sink epochs they are
// written under. A connector.SplitNamer source whose splits all have an
// id gets one per id (several inputs in one checkpoint epoch, each
// written as if read alone: workers, docs/scale-out.md); otherwise the
// whole epoch is one, named by connector.EpochNamer or its number.
func (q *Query) sinkGroups(rec *OffsetRecord, splits []connector.Split) []sinkGroup {
	if sn, ok := q.Source.(connector.SplitNamer); ok && len(splits) > 1 {
		var groups []sinkGroup
		at := map[int64]int{}
		for _, sp := range splits {
			id, ok := sn.SplitEpoch(sp)
			if !ok {
				groups = nil
				break
			}
			i, seen := at[id]
			if !seen {
				i = len(groups)
				at[id] = i
				groups = append(groups, sinkGroup{id: id})
			}
			groups[i].splits = append(groups[i].splits, sp)
		}
		if len(groups) > 0 {
			return groups
		}
	}
	id := rec.Epoch
	if en, ok := q.Source.(connector.EpochNamer); ok {
		if n, ok := en.SinkEpoch(rec.Source); ok {
			id = n
		}
	}
	return []sinkGroup{{id: id, splits: splits}}
}
