package exec

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkKeyTableStrings is Q4's grouping shape: 20,000 client IPs in
// 8192-row batches.
func BenchmarkKeyTableStrings(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	ips := make([]string, 20000)
	for i := range ips {
		ips[i] = fmt.Sprintf("%d.%d.%d.%d", 10+r.Intn(200), r.Intn(256), r.Intn(256), r.Intn(256))
	}
	var batches []arrow.Array
	for k := 0; k < 16; k++ {
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		for i := 0; i < 8192; i++ {
			sb.Append(ips[r.Intn(len(ips))])
		}
		batches = append(batches, sb.NewArray())
	}
	ids := make([]uint32, 8192)
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		kt := newKeyTable([]arrow.DataType{arrow.BinaryTypes.String})
		for rep := 0; rep < 8; rep++ {
			for _, c := range batches {
				kt.assign([]arrow.Array{c}, c.Len(), ids, nil)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*8*16*8192), "ns/row")
}

// BenchmarkKeyTableHourPath is Q3's grouping shape: an hour timestamp and
// a path (about 22,000 pairs), encoded keys in 8192-row batches.
func BenchmarkKeyTableHourPath(b *testing.B) {
	r := rand.New(rand.NewSource(2))
	paths := make([]string, 900)
	for i := range paths {
		paths[i] = fmt.Sprintf("/api/v2/products/%d/reviews", r.Intn(10000))
	}
	var batches [][]arrow.Array
	ts := &arrow.TimestampType{Unit: arrow.Microsecond}
	for k := 0; k < 16; k++ {
		tb := array.NewTimestampBuilder(memory.DefaultAllocator, ts)
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		for i := 0; i < 8192; i++ {
			tb.Append(arrow.Timestamp(int64(r.Intn(24)) * 3600e6))
			sb.Append(paths[r.Intn(len(paths))])
		}
		batches = append(batches, []arrow.Array{tb.NewArray(), sb.NewArray()})
	}
	ids := make([]uint32, 8192)
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		kt := newKeyTable([]arrow.DataType{ts, arrow.BinaryTypes.String})
		for rep := 0; rep < 8; rep++ {
			for _, c := range batches {
				kt.assign(c, 8192, ids, nil)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*8*16*8192), "ns/row")
}
