package streams

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/storage"
)

// DeadLetterRow is one bad row a stream's file source kept in its
// dead_letter_location (connector/file/deadletter.go writes them).
type DeadLetterRow struct {
	File   string `json:"file"`
	Line   int64  `json:"line"`
	Reason string `json:"reason"`
	Raw    string `json:"raw"`
	// Written is when its report was written (the object's time).
	Written time.Time `json:"written"`
}

// maxDeadLetterRaw cuts each row's text in the answer: the console
// shows the start of a bad line, the file holds all of it.
const maxDeadLetterRaw = 512

// DeadLetters reads the newest bad rows (at most limit: the newest
// reports first, each in line order) of stream name's dead_letter_location,
// the stream's own option or its source table's; location is "" when
// it has none (a view, or a stream that keeps no bad rows).
func (m *Streams) DeadLetters(ctx context.Context, name string, limit int) (location string, rows []DeadLetterRow, err error) {
	o, err := m.h.Catalog().Object("stream", name)
	if err != nil {
		return "", nil, nil // a view: its rows go where its source table says, read through the table
	}
	var spec Spec
	_ = json.Unmarshal(o.Options, &spec)
	loc, opts := spec.Options["dead_letter_location"], map[string]string{}
	if spec.Source != "" {
		if t, err := m.h.Catalog().Table(spec.Source); err == nil {
			opts = t.Spec.Options
			if loc == "" {
				loc = t.Spec.Options["dead_letter_location"]
			}
		}
	}
	if loc == "" {
		return "", nil, nil
	}
	so, err := storage.OptionsFromMap(opts)
	if err != nil {
		return loc, nil, fmt.Errorf("reading dead letters of %s: %w", name, err)
	}
	st, prefix, err := storage.Resolve(ctx, loc, so)
	if err != nil {
		return loc, nil, fmt.Errorf("reading dead letters of %s: %w", name, err)
	}
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	var reports []storage.ObjectInfo
	err = st.List(ctx, prefix+"bad-", "", func(oi storage.ObjectInfo) error {
		if strings.HasSuffix(oi.Key, ".json") {
			reports = append(reports, oi)
		}
		return nil
	})
	if errors.Is(err, storage.ErrNotFound) || errors.Is(err, catalog.ErrNotFound) {
		return loc, nil, nil
	}
	if err != nil {
		return loc, nil, fmt.Errorf("listing dead letters of %s: %w", name, err)
	}
	sort.Slice(reports, func(i, j int) bool { return reports[i].ModTime.After(reports[j].ModTime) })
	for _, oi := range reports {
		if len(rows) >= limit {
			break
		}
		r, err := st.Open(ctx, oi.Key)
		if err != nil {
			return loc, rows, fmt.Errorf("reading dead letters of %s: %w", name, err)
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() && len(rows) < limit {
			var row DeadLetterRow
			if json.Unmarshal(sc.Bytes(), &row) != nil {
				continue
			}
			if len(row.Raw) > maxDeadLetterRaw {
				row.Raw = row.Raw[:maxDeadLetterRaw] + "…"
			}
			row.Written = oi.ModTime.UTC()
			rows = append(rows, row)
		}
		err = sc.Err()
		r.Close()
		if err != nil {
			return loc, rows, fmt.Errorf("reading dead letters of %s: %w", name, err)
		}
	}
	return loc, rows, nil
}
