package gen

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/klauspost/compress/gzip"
)

// sampleStream is the PCG stream used by rowsForSize, apart from any file's.
const sampleStream = 0xffff

// batchRows is how many rows are rendered between context checks and
// buffer flushes.
const batchRows = 4096

// sink is one output file of one layout.
type sink struct {
	f   *os.File
	buf *bufio.Writer
	gz  *gzip.Writer // ndjson_gz only
	pq  *parquetWriter
}

// writeFile generates rows [first, first+n) of a data set of total rows
// as file number f of every layout, and returns each layout's byte size.
func writeFile(ctx context.Context, p *pools, seed uint64, dir string, layouts []string, f int, first, n, total int64) (sizes map[string]int64, err error) {
	sinks := map[string]*sink{}
	defer func() {
		for _, s := range sinks {
			if s.f != nil {
				s.f.Close()
			}
		}
	}()
	for _, l := range layouts {
		name := filepath.Join(dir, l, partName(f, l))
		fh, err := os.Create(name)
		if err != nil {
			return nil, fmt.Errorf("creating %s: %w", name, err)
		}
		s := &sink{f: fh, buf: bufio.NewWriterSize(fh, 1<<20)}
		switch l {
		case "ndjson_gz":
			// gzip headers carry no name or mtime unless asked, so the
			// output stays byte-identical between runs.
			s.gz, err = gzip.NewWriterLevel(s.buf, gzip.DefaultCompression)
		case "parquet":
			s.pq, err = newParquetWriter(s.buf)
		case "csv":
			_, err = s.buf.WriteString(CSVHeader)
		}
		if err != nil {
			fh.Close()
			return nil, fmt.Errorf("opening %s: %w", name, err)
		}
		sinks[l] = s
	}

	g := newRowGen(p, seed, f, first, total)
	var ts tsFormatter
	var row Row
	var js, cs []byte
	for done := int64(0); done < n; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		js, cs = js[:0], cs[:0]
		k := min(batchRows, n-done)
		for i := int64(0); i < k; i++ {
			g.fill(&row)
			if sinks["ndjson"] != nil || sinks["ndjson_gz"] != nil {
				js = appendNDJSON(js, &row, &ts)
			}
			if sinks["csv"] != nil {
				cs = appendCSV(cs, &row, &ts)
			}
			if s := sinks["parquet"]; s != nil {
				if err := s.pq.add(&row); err != nil {
					return nil, fmt.Errorf("file %d: %w", f, err)
				}
			}
		}
		done += k
		if s := sinks["ndjson"]; s != nil {
			if _, err := s.buf.Write(js); err != nil {
				return nil, fmt.Errorf("writing %s: %w", s.f.Name(), err)
			}
		}
		if s := sinks["ndjson_gz"]; s != nil {
			if _, err := s.gz.Write(js); err != nil {
				return nil, fmt.Errorf("writing %s: %w", s.f.Name(), err)
			}
		}
		if s := sinks["csv"]; s != nil {
			if _, err := s.buf.Write(cs); err != nil {
				return nil, fmt.Errorf("writing %s: %w", s.f.Name(), err)
			}
		}
	}

	sizes = map[string]int64{}
	for l, s := range sinks {
		if s.gz != nil {
			if err := s.gz.Close(); err != nil {
				return nil, fmt.Errorf("closing %s: %w", s.f.Name(), err)
			}
		}
		if s.pq != nil {
			if err := s.pq.close(); err != nil {
				return nil, fmt.Errorf("closing %s: %w", s.f.Name(), err)
			}
		}
		if err := s.buf.Flush(); err != nil {
			return nil, fmt.Errorf("writing %s: %w", s.f.Name(), err)
		}
		st, err := s.f.Stat()
		if err != nil {
			return nil, fmt.Errorf("sizing %s: %w", s.f.Name(), err)
		}
		sizes[l] = st.Size()
		name := s.f.Name()
		err = s.f.Close()
		s.f = nil
		if err != nil {
			return nil, fmt.Errorf("closing %s: %w", name, err)
		}
	}
	return sizes, nil
}
