package exec

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/expr"
)

// listCounter counts Latest calls, or fails them.
type listCounter struct {
	connector.Source
	latest atomic.Int64
	fail   error
}

func (c *listCounter) Latest(ctx context.Context) (connector.Offset, error) {
	c.latest.Add(1)
	if c.fail != nil {
		return nil, c.fail
	}
	return c.Source.Latest(ctx)
}

func TestListScans(t *testing.T) {
	ctx := context.Background()
	a := &listCounter{Source: seqTable(t, 3, 2)}
	b := &listCounter{Source: seqTable(t, 2, 2)}
	stream := &listCounter{Source: seqTable(t, 5, 2)}
	given := &listCounter{Source: seqTable(t, 4, 2)}
	givenSplits, _ := given.Source.Plan(ctx, nil, nil)
	streamScan := &Scan{Source: stream}
	root := &Stage{Scan: streamScan, Inputs: []*Stage{
		{Scan: &Scan{Source: a}},
		{Inputs: []*Stage{{Scan: &Scan{Source: b}}, {Scan: &Scan{Source: given, Splits: givenSplits[:1]}}}},
	}}
	l, err := ListScans(ctx, root, streamScan)
	if err != nil {
		t.Fatal(err)
	}
	if l.Splits != 5 || l.Bytes <= 0 {
		t.Errorf("listing %+v, want the 5 splits of the unlisted scans", l)
	}
	if a.latest.Load() != 1 || b.latest.Load() != 1 {
		t.Errorf("Latest called %d and %d times, want once each", a.latest.Load(), b.latest.Load())
	}
	if stream.latest.Load() != 0 || streamScan.Splits != nil {
		t.Errorf("the skipped scan was listed")
	}
	if given.latest.Load() != 0 || len(root.Inputs[1].Inputs[1].Scan.Splits) != 1 {
		t.Errorf("a scan with splits was listed again")
	}
	out := NewCollect()
	if err := Run(ctx, root, WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	if got := len(rowsOf(out.Batches())); got != 3*2+2*2+2 {
		t.Errorf("read %d rows after listing", got)
	}
}

func TestListScansNamesTheTable(t *testing.T) {
	src := &listCounter{Source: seqTable(t, 1, 1), fail: errors.New("access denied")}
	_, err := ListScans(context.Background(), &Stage{Scan: &Scan{Name: "logs", Source: src}}, nil)
	if err == nil || !strings.Contains(err.Error(), "listing logs: access denied") {
		t.Errorf("error %v", err)
	}
}

func TestLoadBuildSide(t *testing.T) {
	ctx := context.Background()
	i64 := arrow.PrimitiveTypes.Int64
	build := seqTable(t, 1, 3) // x = 0, 1, 2
	probe := seqTable(t, 1, 5) // x = 0..4
	bs := &Scan{Source: build}
	j, err := NewHashJoin(ctx, InnerJoin, probe.Schema(), build.Schema(), nil, []expr.Expr{expr.Col(0, "x", i64)}, []expr.Expr{expr.Col(0, "x", i64)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	j.SetBuildPlan(&Stage{Scan: bs})
	if err := LoadBuildSide(ctx, j); err != nil {
		t.Fatal(err)
	}
	if got := runOps(t, []arrow.RecordBatch{batchOf(t, []string{"x"}, []any{int64(0), int64(2), int64(4)})}, j); len(got) != 2 {
		t.Errorf("after loading: %v, want 2 matches", got)
	}
	// Loading again lists the build side afresh: new rows are seen.
	if err := build.Append(batchOf(t, []string{"x"}, []any{int64(4)})); err != nil {
		t.Fatal(err)
	}
	if err := LoadBuildSide(ctx, j); err != nil {
		t.Fatal(err)
	}
	if got := runOps(t, []arrow.RecordBatch{batchOf(t, []string{"x"}, []any{int64(0), int64(2), int64(4)})}, j); len(got) != 3 {
		t.Errorf("after reloading: %v, want 3 matches", got)
	}
	if err := LoadBuildSide(ctx, &HashJoin{}); err == nil {
		t.Errorf("a join without a build plan loaded")
	}
}
