package file

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/format"
	"sluice/internal/types"
)

var _ connector.StageRowErrorReporter = (*StreamSource)(nil)

// stageBad holds the rows reported above the scan during one epoch, by
// split ID, until EndStageRowErrors.
type stageBad struct {
	bySplit map[string]*badRows
	n       int64
}

// ReportStageRowError applies the table's mode to a row that failed in
// an operator above the scan: FAILFAST fails with the file; otherwise the
// row is kept for the epoch's end. The row's ordinal in its file is not
// known there (late rows were dropped before), so the dead letter holds
// the row's values instead.
func (s *StreamSource) ReportStageRowError(split string, row arrow.RecordBatch, err error) error {
	name := split
	if i := strings.LastIndex(split, "@"); i >= 0 {
		name = split[:i]
	}
	if s.fopts.Mode == format.FailFast {
		return fmt.Errorf("table %s: %s: %w (mode FAILFAST; fix or skip the file, or use mode DROPMALFORMED, to go on)", s.spec.Name, name, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stage.n++
	if s.dead == nil {
		return nil
	}
	if s.stage.bySplit == nil {
		s.stage.bySplit = map[string]*badRows{}
	}
	b := s.stage.bySplit[split]
	if b == nil {
		b = &badRows{}
		s.stage.bySplit[split] = b
	}
	b.add(format.BadRow{File: name, Reason: err.Error(), Raw: rowJSON(row)})
	return nil
}

// EndStageRowErrors stores (ok) or forgets the epoch's reported rows.
func (s *StreamSource) EndStageRowErrors(ctx context.Context, ok bool) error {
	s.mu.Lock()
	st := s.stage
	s.stage = stageBad{}
	s.mu.Unlock()
	if !ok {
		return nil
	}
	s.badRows.Add(st.n)
	ids := make([]string, 0, len(st.bySplit))
	for id := range st.bySplit {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		// Apart from the reader's own report of the same file.
		if err := s.dead.save(ctx, id+"#stage", st.bySplit[id]); err != nil {
			return fmt.Errorf("table %s: %w", s.spec.Name, err)
		}
	}
	return nil
}

// rowJSON is a one-row batch as a JSON object of its printed values.
func rowJSON(row arrow.RecordBatch) string {
	obj := make(map[string]any, row.NumCols())
	for c := 0; c < int(row.NumCols()); c++ {
		col := row.Column(c)
		if col.IsNull(0) {
			obj[row.Schema().Field(c).Name] = nil
			continue
		}
		obj[row.Schema().Field(c).Name] = types.FormatValue(col, 0)
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return ""
	}
	if len(data) > format.MaxBadRowRaw {
		data = data[:format.MaxBadRowRaw]
	}
	return string(data)
}
