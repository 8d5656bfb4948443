package functions

import (
	"context"
	"fmt"
	mrand "math/rand/v2"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// ppl_rand([seed]) is PPL's RAND as the plugin's Calcite engine runs it:
// a java.util.Random seeded with seed ^ (seed << 16), one nextDouble per
// row (javaRandom), the sequence going on across the query's batches (Spark's rand
// differs: another generator, per partition). Without a seed the
// generator's seed is random.
func bindPPLRand(args []Arg) (*Bound, error) {
	var seed int64
	if len(args) == 1 {
		v, ok := toInt64(args[0].Value)
		if !args[0].Const || (!ok && args[0].Value != nil) {
			return nil, fmt.Errorf("ppl_rand: the seed must be a constant integer")
		}
		seed = v ^ (v << 16)
	} else {
		seed = mrand.Int64()
	}
	var mu sync.Mutex
	r := newJavaRandom(seed)
	return &Bound{Type: types.Double, Eval: func(_ context.Context, n int, _ []arrow.Array) (arrow.Array, error) {
		mu.Lock()
		defer mu.Unlock()
		return fixedResult(types.Double, n, nil, func(int) (float64, bool) { return r.nextDouble(), true }), nil
	}}, nil
}
