package exec

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/klauspost/compress/zstd"
)

// Spill files are zstd-compressed here rather than by Arrow IPC's own
// compression: that one makes a new default encoder for every IPC writer
// (an 8 MiB window: a 16 MiB history buffer each), and an aggregate
// writes a new IPC section per partition per spill, so a 10M-key GROUP BY
// under a 256 MB limit allocated gigabytes of garbage and peaked well
// above its limit. One small-window encoder serves every section, and a
// run's stream gets its own small one.
const spillZstdWindow = 256 << 10

var spillEncOpts = []zstd.EOption{
	zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1),
	zstd.WithWindowSize(spillZstdWindow), zstd.WithLowerEncoderMem(true),
}

var spillDecOpts = []zstd.DOption{
	zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
	zstd.WithDecoderMaxWindow(spillZstdWindow),
}

// sectionCodec compresses whole sections; EncodeAll and DecodeAll are
// safe for concurrent use (callers take turns on the one encoder).
var sectionEnc, sectionDec = func() (*zstd.Encoder, *zstd.Decoder) {
	enc, err := zstd.NewWriter(nil, spillEncOpts...)
	if err != nil {
		panic(err) // only bad options fail: a programming error
	}
	dec, err := zstd.NewReader(nil, spillDecOpts...)
	if err != nil {
		panic(err)
	}
	return enc, dec
}()

// compressSection and decompressSection frame one section's bytes.
func compressSection(p []byte) []byte { return sectionEnc.EncodeAll(p, nil) }

func decompressSection(p []byte) ([]byte, error) {
	out, err := sectionDec.DecodeAll(p, nil)
	if err != nil {
		return nil, fmt.Errorf("reading spill file: %w", err)
	}
	return out, nil
}

// newSpillCompressor streams a run into w.
func newSpillCompressor(w io.Writer) (*zstd.Encoder, error) {
	return zstd.NewWriter(w, spillEncOpts...)
}

// newSpillDecompressor reads a run written by newSpillCompressor.
func newSpillDecompressor(r io.Reader) (*zstd.Decoder, error) {
	return zstd.NewReader(r, spillDecOpts...)
}

// readSpillRows reads a section written by writeSpillRows; the batches
// are owned by the caller.
func readSpillRows(r io.Reader) ([]arrow.RecordBatch, error) {
	p, err := readSection(r)
	if err != nil {
		return nil, err
	}
	if p, err = decompressSection(p); err != nil {
		return nil, err
	}
	_, rows, err := decodeRows(p)
	return rows, err
}
