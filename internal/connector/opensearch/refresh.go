package opensearch

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// refreshWritten makes a batch write's documents searchable before the
// statement returns (connector.SinkOptions.Batch): without it a SELECT
// right after an INSERT saw the index as of its last periodic refresh,
// often empty. One _refresh of the indexes written, after the last bulk,
// costs less than refresh=wait_for on every bulk request. A table whose
// refresh option is set keeps its own choice.
func (s *Sink) refreshWritten(ctx context.Context) error {
	if !s.batch || s.o.Refresh != "" {
		return nil
	}
	s.mu.Lock()
	names := slices.Sorted(maps.Keys(s.ensured))
	s.mu.Unlock()
	if len(names) == 0 {
		return nil
	}
	for i, n := range names {
		names[i] = url.PathEscape(n)
	}
	path := "/" + strings.Join(names, ",") + "/_refresh"
	return withRetry(ctx, s.o, "refreshing "+strings.Join(names, ","), func() (bool, error) {
		st, body, err := s.cl.do(ctx, http.MethodPost, path, nil)
		if err != nil {
			return true, err
		}
		if st >= 300 {
			return retryable(st), statusErr("refreshing", st, body)
		}
		return false, nil
	})
}
