package file

import (
	"context"
	"fmt"
	"sluice/internal/storage"
	"strings"

	"sluice/internal/connector"
)

var _ connector.FileSkipper = (*Source)(nil)

// WithFileSkipping returns a source whose Plan also drops the files the
// skipping index rules out for the pushed filter.
func (s *Source) WithFileSkipping(fs *connector.FileSkipping) connector.Source {
	c := *s
	c.skipping = fs
	c.stats, c.last = &planStats{}, &lastOffset{}
	return &c
}

// FileVersion stats the file at uri, one of this table's files.
func (s *Source) FileVersion(ctx context.Context, uri string) (string, error) {
	base := strings.TrimSuffix(s.loc.store.String(), "/") + "/"
	key, ok := strings.CutPrefix(uri, base)
	if !ok {
		return "", fmt.Errorf("table %s: %s is not in its store %s", s.spec.Name, uri, base)
	}
	info, err := s.loc.store.Stat(ctx, key)
	if err != nil {
		return "", fmt.Errorf("table %s: %w", s.spec.Name, err)
	}
	return info.ETag, nil
}

// skipIndexed keeps the files the skipping index cannot rule out: a file
// is dropped only when it is indexed as it is now (same ETag, one that tells a rewrite apart:
// storage.Trusted) and some conjunct cannot match the
// index's MIN_MAX range, VALUE_SET or BLOOM_FILTER for it.
func (s *Source) skipIndexed(files []fileEntry) []fileEntry {
	if s.skipping == nil || len(s.statPreds) == 0 || len(files) == 0 {
		return files
	}
	out := files[:0:0]
	for _, f := range files {
		st := s.skipping.Files[s.loc.keyURI(f.Key)]
		if st == nil || st.Version != f.ETag || !storage.Trusted(st.Version) || fileMayMatch(st, s.statPreds) {
			out = append(out, f)
		}
	}
	return out
}

// fileMayMatch reports whether a file with these index stats can hold a
// row for which every conjunct is TRUE.
func fileMayMatch(st *connector.FileSkipStats, preds []statPred) bool {
	for _, p := range preds {
		col := strings.ToLower(p.col)
		if mm, ok := st.MinMax[col]; ok && !p.mayMatch(mm[0], mm[1], -1) {
			return false
		}
		if p.op != "=" && p.op != "in" {
			continue
		}
		if vs, ok := st.ValueSets[col]; ok && !anyIn(p.vals, vs) {
			return false
		}
		if bf, ok := st.Blooms[col]; ok && bf != nil {
			hit := false
			for _, v := range p.vals {
				if bf.MightContain(canonStat(v)) {
					hit = true
					break
				}
			}
			if !hit {
				return false
			}
		}
	}
	return true
}

// anyIn reports whether one of vals is in set.
func anyIn(vals, set []any) bool {
	for _, v := range vals {
		for _, x := range set {
			if c, ok := compareStat(canonStat(v), canonStat(x)); !ok || c == 0 {
				return true
			}
		}
	}
	return false
}

// canonStat is v as FileSkipStats holds it: an integral float64 becomes
// int64, so 5 and 5.0 are one value.
func canonStat(v any) any {
	v = normStat(v)
	if f, ok := v.(float64); ok && f == float64(int64(f)) && f >= -9.2e18 && f <= 9.2e18 {
		return int64(f)
	}
	return v
}
