package docid

import (
	"encoding/binary"
	"encoding/hex"

	"github.com/cespare/xxhash/v2"
)

// Rows names documents of rows without an id: each row's id hashes the
// write it belongs to, the epoch, how many identical rows came before it
// in the epoch (its occurrence) and the row's source. The same input
// replayed under the same write and epoch (in any order) gets the same
// ids, so a replay overwrites, while two identical rows stay two
// documents, and so do identical rows of two writes.
//
// The write is a batch INSERT's query id (its one epoch is always 0) or
// a stream's id from its checkpoint (its offsets record makes a replay
// read the same rows in the same epoch, under the same id). Without a
// write id the ids are those every earlier version made, so a stream
// whose checkpoint predates write ids still overwrites when it replays.
//
// An id is 32 hex digits: xxhash64 of prefix and source, then xxhash64
// of the source. Two distinct sources collide only if both halves do
// (2^-128 a pair); k identical rows of one source differ in the first
// half only, so some pair of them collides with probability about
// k²/2^65 (about 3·10^-10 for k = 100,000).
type Rows struct {
	write [8]byte
	has   bool
}

// IDLen is the length of a row id.
const IDLen = 32

// WithWrite returns r naming a write of its own: write, hashed.
func (r Rows) WithWrite(write string) Rows {
	if write == "" {
		return Rows{}
	}
	binary.LittleEndian.PutUint64(r.write[:], xxhash.Sum64String(write))
	r.has = true
	return r
}

// PrefixLen is how many bytes Append needs in front of each source.
func (r Rows) PrefixLen() int {
	if r.has {
		return 20
	}
	return 12
}

// Append appends the id of the row whose source, hashed to srcHash,
// follows PrefixLen scratch bytes in rec; Append fills those first, so
// the hash runs over contiguous bytes.
func (r Rows) Append(dst, rec []byte, epoch int64, occurrence uint32, srcHash uint64) []byte {
	binary.LittleEndian.PutUint64(rec[:8], uint64(epoch))
	binary.LittleEndian.PutUint32(rec[8:12], occurrence)
	if r.has {
		copy(rec[12:20], r.write[:])
	}
	var sum [16]byte
	binary.BigEndian.PutUint64(sum[:8], xxhash.Sum64(rec))
	binary.BigEndian.PutUint64(sum[8:], srcHash)
	return hex.AppendEncode(dst, sum[:])
}
