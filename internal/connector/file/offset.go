package file

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"sluice/internal/connector"
)

// fileOffset is the JSON form of an Offset: the files available.
type fileOffset struct {
	Files []fileEntry `json:"files"`
}

// decodeOffset reads an Offset back; nil or empty is no files.
func decodeOffset(o connector.Offset) (fileOffset, error) {
	var fo fileOffset
	if len(o) == 0 || string(o) == "null" {
		return fo, nil
	}
	if err := json.Unmarshal(o, &fo); err != nil {
		return fo, fmt.Errorf("decoding file offset: %w", err)
	}
	return fo, nil
}

// NextOffset is Latest bounded for one streaming epoch: the files of from
// plus the files not in from (or changed since, with
// reprocess_changed_files), oldest first (newest first with
// latest_first), up to max_files_per_trigger files and
// max_bytes_per_trigger bytes but always at least one. With nothing new it
// returns from unchanged, so Plan(from, next) is empty. Files the pushed
// partition filter rules out are still recorded as seen.
func (s *Source) NextOffset(ctx context.Context, from connector.Offset) (connector.Offset, error) {
	prev, err := decodeOffset(from)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.spec.Name, err)
	}
	files, err := s.listFiles(ctx)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]string, len(prev.Files))
	for _, f := range prev.Files {
		seen[f.Key] = f.ETag
	}
	var fresh []fileEntry
	for _, f := range files {
		etag, ok := seen[f.Key]
		if !ok || (s.sopts.ReprocessChangedFiles && etag != f.ETag) {
			fresh = append(fresh, f)
		}
	}
	if len(fresh) == 0 {
		if len(from) == 0 {
			return json.Marshal(fileOffset{Files: []fileEntry{}})
		}
		return from, nil
	}
	sort.SliceStable(fresh, func(i, j int) bool {
		a, b := fresh[i], fresh[j]
		if s.sopts.LatestFirst {
			a, b = b, a
		}
		if a.MTime != b.MTime {
			return a.MTime < b.MTime
		}
		return fresh[i].Key < fresh[j].Key
	})
	var take []fileEntry
	var bytes int64
	for _, f := range fresh {
		if len(take) > 0 {
			if s.sopts.MaxFilesPerTrigger > 0 && len(take) >= s.sopts.MaxFilesPerTrigger {
				break
			}
			if s.sopts.MaxBytesPerTrigger > 0 && bytes+f.Size > s.sopts.MaxBytesPerTrigger {
				break
			}
		}
		take = append(take, f)
		bytes += f.Size
	}
	sort.Slice(take, func(i, j int) bool { return take[i].Key < take[j].Key })
	taken := make(map[string]bool, len(take))
	for _, f := range take {
		taken[f.Key] = true
	}
	next := fileOffset{Files: make([]fileEntry, 0, len(prev.Files)+len(take))}
	for _, f := range prev.Files {
		if !taken[f.Key] {
			next.Files = append(next.Files, f)
		}
	}
	next.Files = append(next.Files, take...)
	raw, err := json.Marshal(next)
	if err != nil {
		return nil, fmt.Errorf("table %s: encoding offset: %w", s.spec.Name, err)
	}
	return raw, nil
}
