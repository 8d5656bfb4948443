package expr

import (
	"context"
	"sync"
	"testing"

	"sluice/internal/types"
)

// Compiled expressions are shared by parallel workers.
func TestConcurrentEval(t *testing.T) {
	b := testBatch(t)
	defer b.Release()
	s := col(t, b, "s")
	m, err := Call("match", s, lit(t, "pie", types.String))
	if err != nil {
		t.Fatal(err)
	}
	like, err := Like(s, lit(t, "%an%", types.String), '\\', true, false)
	if err != nil {
		t.Fatal(err)
	}
	both := mustCall(t, "or", m, like)
	in, err := In(col(t, b, "i"), []Expr{lit(t, int32(1), types.Int), lit(t, int32(4), types.Int)}, false)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				for _, e := range []Expr{both, in} {
					out, err := e.Eval(context.Background(), b)
					if err != nil {
						t.Error(err)
						return
					}
					out.Release()
				}
			}
		}()
	}
	wg.Wait()
	check(t, both, b, false, true, nil, true)
}
