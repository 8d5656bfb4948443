package file

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/storage"
)

var _ connector.Replacer = (*Sink)(nil)

// BeginReplace notes the files under the table's folder, or under the
// partition folder static names, that CommitReplace will delete. Only
// what this sink writes may be there: part-* files, in key=value folders
// for a partitioned table. Anything else (a file someone put there, a
// folder that is not a partition) is refused, deleting nothing; hidden
// files (_SUCCESS, .crc) are skipped by listing as by reading, so they
// are neither refused nor deleted.
func (s *Sink) BeginReplace(ctx context.Context, static []arrow.Array) error {
	if len(static) > len(s.partIdx) {
		return fmt.Errorf("replacing %s: %d partition values for %d partition columns", s.spec.Name, len(static), len(s.partIdx))
	}
	prefix := s.loc.base
	for k, v := range static {
		if v.Len() != 1 {
			return fmt.Errorf("replacing %s: partition value %d has %d rows, want 1", s.spec.Name, k, v.Len())
		}
		prefix += escapePathName(s.table.Field(s.partIdx[k]).Name) + "=" + formatPartitionValue(v, 0) + "/"
	}
	var old, foreign []string
	err := s.loc.store.List(ctx, prefix, "", func(o storage.ObjectInfo) error {
		rel := strings.TrimPrefix(o.Key, s.loc.base)
		if ownedFile(rel) {
			old = append(old, o.Key)
		} else {
			foreign = append(foreign, rel)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("replacing %s: listing %s: %w", s.spec.Name, s.loc.keyURI(prefix), err)
	}
	if len(foreign) > 0 {
		return fmt.Errorf("replacing %s: %s %w (%s); nothing was written or deleted",
			s.spec.Name, s.loc.keyURI(prefix), storage.ErrForeignFiles, storage.SampleNames(foreign))
	}
	s.replacing, s.old = true, old
	return nil
}

// ownedFile reports whether rel, a key below the table's folder, is one
// the sink writes: a part-* file in zero or more key=value folders.
func ownedFile(rel string) bool {
	segs := strings.Split(rel, "/")
	for _, d := range segs[:len(segs)-1] {
		if !strings.Contains(d, "=") {
			return false
		}
	}
	return strings.HasPrefix(segs[len(segs)-1], "part-")
}

// CommitReplace deletes the files BeginReplace noted; the new ones are
// stored by then, so a failure part way leaves some old rows beside the
// new ones, never fewer than the new ones.
func (s *Sink) CommitReplace(ctx context.Context) error {
	if !s.replacing {
		return fmt.Errorf("replacing %s: BeginReplace was not called", s.spec.Name)
	}
	for i, k := range s.old {
		if err := s.loc.store.Delete(ctx, k); err != nil {
			return fmt.Errorf("replacing %s: the new rows are written but %d of %d old files are left: %w", s.spec.Name, len(s.old)-i, len(s.old), err)
		}
	}
	s.replacing, s.old = false, nil
	return nil
}

// AbortReplace deletes the files this sink stored, leaving the old
// ones: a failed INSERT OVERWRITE changes nothing.
func (s *Sink) AbortReplace(ctx context.Context) error {
	s.abortAll()
	for _, k := range s.storedKeys {
		if err := s.loc.store.Delete(ctx, k); err != nil {
			return fmt.Errorf("replacing %s: removing the new file %s: %w", s.spec.Name, s.loc.keyURI(k), err)
		}
	}
	s.storedKeys = nil
	s.replacing, s.old = false, nil
	return nil
}
