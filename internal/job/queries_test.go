package job

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestQueries: submitted queries get ids in order, end success, failed
// or cancelled, and a stream's query reports the stream's status.
func TestQueries(t *testing.T) {
	m := testManager(nil)
	ctx := context.Background()
	ok := m.StartQuery(ctx, "SELECT 1", "", func(context.Context) (string, error) { return "one row", nil })
	bad := m.StartQuery(ctx, "SELECT x", "", func(context.Context) (string, error) { return "", errors.New("no column x") })
	started := make(chan struct{})
	long := m.StartQuery(ctx, "INSERT STREAM ...", "feed", func(ctx context.Context) (string, error) {
		if err := m.Register(ctx, NewRun(Status{Name: "feed", State: StateRunning}, nil)); err != nil {
			return "", err
		}
		close(started)
		<-ctx.Done()
		return "stopped", nil
	})
	if ok != "q1" || bad != "q2" || long != "q3" {
		t.Fatalf("ids %s %s %s", ok, bad, long)
	}
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if info, err := m.Wait(wctx, ok); err != nil || info.State != StateSuccess || info.Result != "one row" {
		t.Errorf("q1: %+v, %v", info, err)
	}
	if info, err := m.Wait(wctx, bad); err != nil || info.State != StateFailed || info.Error != "no column x" {
		t.Errorf("q2: %+v, %v", info, err)
	}
	<-started
	if info, st, err := m.Query(long); err != nil || info.Stream != "feed" || st == nil || st.State != StateRunning {
		t.Errorf("q3 running: %+v, %+v, %v", info, st, err)
	}
	if err := m.Cancel(long); err != nil {
		t.Fatal(err)
	}
	if info, err := m.Wait(wctx, long); err != nil || info.State != StateCancelled || info.Result != "stopped" {
		t.Errorf("q3 cancelled: %+v, %v", info, err)
	}
	if qs := m.Queries(); len(qs) != 3 || qs[0].ID != "q1" || qs[2].ID != "q3" {
		t.Errorf("Queries: %+v", qs)
	}
	if _, _, err := m.Query("q9"); err == nil {
		t.Error("Query of an unknown id: no error")
	}
}
