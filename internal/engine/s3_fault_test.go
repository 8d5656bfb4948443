package engine

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"sluice/internal/testutil/faultproxy"
)

// TestS3Faults runs the fixture's queries through a proxy that answers
// 503 SlowDown, cuts bodies off with TCP resets and adds latency: every
// query returns exactly the rows it returns without the proxy.
func TestS3Faults(t *testing.T) {
	srv := needS3(t)
	clean := newS3Fixture(t, srv.Endpoint)
	cfgs := []struct {
		name string
		cfg  faultproxy.Config
	}{
		{"slowdown", faultproxy.Config{SlowDownRate: 0.3, Seed: 1}},
		{"resets", faultproxy.Config{ResetRate: 0.4, Seed: 2}},
		{"all", faultproxy.Config{SlowDownRate: 0.2, ResetRate: 0.3, Latency: 2 * time.Millisecond, Seed: 3}},
	}
	for _, c := range cfgs {
		t.Run(c.name, func(t *testing.T) {
			p, err := faultproxy.Start(srv.Endpoint, faultproxy.Config{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			// Set up (uploads, schema inference) without faults; then
			// turn them on for the queries. Short backoff keeps it quick.
			faulty := newS3Fixture(t, p.URL, "max_retries '12'", "retry_max_backoff '20ms'")
			p.SetConfig(c.cfg)
			for _, q := range fixtureQueries() {
				want := sortedRows(t, clean.eng, fmt.Sprintf(q, "s"))
				got := sortedRows(t, faulty.eng, fmt.Sprintf(q, "s"))
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: through faults %d rows, clean %d\nfaults: %.300v\nclean:  %.300v",
						fmt.Sprintf(q, "s"), len(got), len(want), got, want)
				}
			}
			_, slow, resets := p.Stats()
			if (c.cfg.SlowDownRate > 0 && slow == 0) || (c.cfg.ResetRate > 0 && resets == 0) {
				t.Errorf("the proxy injected %d 503s and %d resets: the test proved nothing", slow, resets)
			}
			t.Logf("%s: %d 503 SlowDown, %d resets", c.name, slow, resets)
		})
	}
}
