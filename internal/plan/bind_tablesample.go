package plan

import (
	"strconv"

	"sluice/internal/sql"
)

// bindSample binds t TABLESAMPLE (...): ROWS is a LIMIT, as in Spark;
// PERCENT and BUCKET keep a row when its uniform draw in [0, 1) falls in
// their range, so the buckets of one REPEATABLE seed share no row and
// together hold them all.
func (b *Binder) bindSample(te *sql.TableName) (Node, *scope, error) {
	plain := *te
	plain.Sample = nil
	n, sc, err := b.bindFrom(&plain)
	if err != nil {
		return nil, nil, err
	}
	s := te.Sample
	hi := 0.0
	switch s.Kind {
	case sql.SampleRows:
		rows, err := b.constInt(s.Value, "TABLESAMPLE (n ROWS)")
		if err != nil {
			return nil, nil, err
		}
		return &Limit{Input: n, N: rows}, sc, nil
	case sql.SamplePercent:
		pct, ok := samplePercent(s.Value)
		if !ok {
			return nil, nil, errAt(s, "TABLESAMPLE (n PERCENT) expects a number, got %s", s.Value)
		}
		if pct < 0 || pct > 100 {
			return nil, nil, errAt(s, "sampling fraction (%v) must be on interval [0, 1]", pct/100)
		}
		hi = pct / 100
	case sql.SampleBucket:
		if s.OutOf <= 0 || s.Bucket < 0 || s.Bucket > s.OutOf {
			return nil, nil, errAt(s, "TABLESAMPLE (BUCKET %d OUT OF %d): the bucket must be between 0 and %d", s.Bucket, s.OutOf, s.OutOf)
		}
	}
	draw := &sql.Call{At: s.At, Name: "rand"}
	if s.Seed != nil {
		draw.Args = []sql.Expr{&sql.Literal{At: s.At, Kind: sql.LitInteger, Value: strconv.FormatInt(*s.Seed, 10)}}
	}
	num := func(f float64) sql.Expr {
		return &sql.Literal{At: s.At, Kind: sql.LitFloat, Value: strconv.FormatFloat(f, 'e', -1, 64)}
	}
	// One draw per row: bucket k of y holds the rows whose draw*y
	// floors to k-1.
	in := sql.Expr(&sql.Binary{At: s.At, Op: sql.OpLt, L: draw, R: num(hi)})
	if s.Kind == sql.SampleBucket {
		scaled := &sql.Binary{At: s.At, Op: sql.OpMul, L: draw, R: num(float64(s.OutOf))}
		floor := &sql.Call{At: s.At, Name: "floor", Args: []sql.Expr{scaled}}
		in = &sql.Binary{At: s.At, Op: sql.OpEq, L: floor, R: &sql.Literal{At: s.At, Kind: sql.LitInteger, Value: strconv.FormatInt(s.Bucket-1, 10)}}
	}
	pred, err := b.bindScalar(in, sc)
	if err != nil {
		return nil, nil, err
	}
	return &Filter{Input: n, Pred: pred}, sc, nil
}

// samplePercent reads the percentage of TABLESAMPLE: a number, maybe
// negated.
func samplePercent(e sql.Expr) (float64, bool) {
	neg := false
	if u, ok := e.(*sql.Unary); ok && u.Op == sql.OpNeg {
		neg, e = true, u.X
	}
	lit, ok := e.(*sql.Literal)
	if !ok || lit.Kind != sql.LitInteger && lit.Kind != sql.LitDecimal && lit.Kind != sql.LitFloat {
		return 0, false
	}
	f, err := strconv.ParseFloat(lit.Value, 64)
	if neg {
		f = -f
	}
	return f, err == nil
}
