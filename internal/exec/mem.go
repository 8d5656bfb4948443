package exec

import "github.com/apache/arrow-go/v18/arrow/memory"

// memAlloc is the allocator operators build their outputs with.
var memAlloc memory.Allocator = memory.DefaultAllocator

// emitBatchRows bounds the batches that buffering operators (aggregate,
// sort, join) emit, so downstream work stays cache-sized and a LIMIT
// above can stop early.
const emitBatchRows = 64 * 1024
