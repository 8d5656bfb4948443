package server

import (
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestConsoleHistoryInBrowser: the charts of a stream that ran before a
// restart show its past at once on the restarted server (read from
// <data dir>/console-history.json), its epochs by phase included, before
// the stream has run again.
func TestConsoleHistoryInBrowser(t *testing.T) {
	chromium := chromiumPath(t)
	opts := func(o *Options) { o.HistoryInterval = 100 * time.Millisecond }
	f := newAuthFixture(t, opts)
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE out (id BIGINT, name STRING) USING json LOCATION '"+filepath.Join(f.dir, "out")+"/'")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'feed', trigger = '100 milliseconds')")
	var before HistoryJSON
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if before = f.history(t, "feed"); len(before.Epochs.Epoch) > 0 && len(before.Time) >= 3 {
			break
		}
	}
	if len(before.Epochs.Epoch) == 0 {
		t.Fatal("no epoch in the history")
	}
	f.do(200, APIStreamsPath+"/feed/stop", "alice", "alice-pw", "")
	if err := f.srv.Close(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	// The same data dir and users, a new server: the stream stays stopped.
	o := Options{DataDir: filepath.Join(f.dir, "data"), Logf: t.Logf, Security: Security{Users: filepath.Join(f.dir, "users")}}
	opts(&o)
	srv, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	f.url = hs.URL

	tab := newTab(t, startChromium(t, chromium), "bob", "bob-pw")
	tab.do(t, "loading the console", chromedp.Navigate(f.url+ConsolePath), chromedp.WaitVisible(chromedp.CSS(`#card-feed .chart-phases .uplot`)))
	tab.waitText(t, `tr[data-stream="feed"] .state`, "the stopped stream", func(s string) bool { return s == "stopped" })
	tab.waitText(t, `#card-feed .chart-phases h4 .note`, "the last epoch before the restart", func(s string) bool {
		return s != "" && s != "· no epoch yet"
	})
	for _, c := range []struct {
		key  string
		want int
	}{{"rate", len(before.Time)}, {"phases", len(before.Epochs.Epoch)}, {"inproc", len(before.Epochs.Epoch)}} {
		got, err := chromedp.Run(tab.ctx, chromedp.Evaluate[int](`window.__sluicePlotted("feed", "`+c.key+`")`))
		if err != nil || got < c.want {
			t.Errorf("after the restart the %s chart plots %d points (%v), want at least the %d of before", c.key, got, err, c.want)
		}
	}
	tab.noProblems(t, "read user")
}
