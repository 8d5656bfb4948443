package skipindex

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/connector"
)

// Decode reads index rows (the index table's batches) into the per-file
// data file pruning uses; entries it cannot read are left out, which
// only means those files are read.
func Decode(cols []Column, batches []arrow.RecordBatch, into *connector.FileSkipping) error {
	if into.Files == nil {
		into.Files = map[string]*connector.FileSkipStats{}
	}
	for _, rec := range batches {
		col := func(name string) *array.String {
			for i, f := range rec.Schema().Fields() {
				if strings.EqualFold(f.Name, name) {
					s, _ := rec.Column(i).(*array.String)
					return s
				}
			}
			return nil
		}
		text := func(a *array.String, i int) (string, bool) {
			if a == nil || a.IsNull(i) {
				return "", false
			}
			return a.Value(i), true
		}
		paths := col(FileColumn)
		if paths == nil {
			return fmt.Errorf("skipping index: no %s column", FileColumn)
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			path, ok := text(paths, i)
			if !ok {
				continue
			}
			version, _ := text(col(VersionColumn), i)
			st := &connector.FileSkipStats{Version: version, MinMax: map[string][2]any{}, ValueSets: map[string][]any{},
				Blooms: map[string]connector.MembershipFilter{}}
			for _, c := range cols {
				name := strings.ToLower(c.Name)
				fields := c.Fields()
				switch c.Kind {
				case MinMax:
					lo, ok1 := text(col(fields[0]), i)
					hi, ok2 := text(col(fields[1]), i)
					if !ok1 || !ok2 {
						continue
					}
					l, err1 := decodeValue(lo)
					h, err2 := decodeValue(hi)
					if err1 == nil && err2 == nil {
						st.MinMax[name] = [2]any{l, h}
					}
				case ValueSet:
					raw, ok := text(col(fields[0]), i)
					if !ok {
						continue
					}
					var enc []string
					if json.Unmarshal([]byte(raw), &enc) != nil {
						continue
					}
					vals := make([]any, 0, len(enc))
					good := true
					for _, e := range enc {
						v, err := decodeValue(e)
						if err != nil {
							good = false
							break
						}
						vals = append(vals, v)
					}
					if good {
						st.ValueSets[name] = vals
					}
				case BloomFilter:
					raw, ok := text(col(fields[0]), i)
					if !ok {
						continue
					}
					if bf, err := decodeBloom(raw); err == nil {
						st.Blooms[name] = bf
					}
				}
			}
			into.Files[path] = st
		}
	}
	return nil
}
