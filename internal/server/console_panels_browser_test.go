package server

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestConsolePanelsInBrowser: a stream's card shows its bad and late
// rows and watermark, a view's card its state per stateful operator, the
// plan view shows the stream's EXPLAIN and the dead-letter browser the
// bad rows with file, line and error, for a read user.
func TestConsolePanelsInBrowser(t *testing.T) {
	chromium := chromiumPath(t)
	f := newAuthFixture(t, nil)
	dl := filepath.Join(f.dir, "dead")
	writeFile(t, filepath.Join(f.dir, "nums", "part0.json"), `{"v": "1"}`+"\n"+`{"v": "x"}`+"\n"+`not json`+"\n"+`{"v": "3"}`+"\n")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE nums (v STRING) USING json LOCATION '"+filepath.Join(f.dir, "nums")+"/' OPTIONS (mode 'DROPMALFORMED', dead_letter_location '"+dl+"/')")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE numsout (n BIGINT) USING json LOCATION '"+filepath.Join(f.dir, "numsout")+"/'")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "INSERT STREAM INTO numsout SELECT CAST(v AS BIGINT) AS n FROM nums WITH (name = 'nums_feed', trigger = '100 milliseconds')")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE MATERIALIZED VIEW names AS SELECT name, count(*) AS n FROM t GROUP BY name WITH (auto_refresh = true, refresh_interval = '200 milliseconds')")
	bctx := startChromium(t, chromium)

	tab := newTab(t, bctx, "bob", "bob-pw")
	tab.do(t, "loading the console", chromedp.Navigate(f.url+ConsolePath), chromedp.WaitVisible(chromedp.CSS(`#card-nums_feed .fig-bad`)))
	tab.waitText(t, `#card-nums_feed .fig-bad`, "bad rows", func(s string) bool { return s == "Bad rows 2" })
	tab.waitText(t, `#card-nums_feed .fig-late`, "late rows", func(s string) bool { return s == "Late rows 0" })
	tab.waitText(t, `#card-nums_feed .fig-watermark`, "watermark", func(s string) bool { return s == "Watermark —" })
	// The view's GROUP BY holds one group (every name in t is "n").
	tab.waitText(t, `#card-names .state-table tbody tr .state-rows`, "state rows", func(s string) bool { return s == "1" })
	tab.waitText(t, `#card-names .state-table tbody tr .state-bytes`, "state bytes", func(s string) bool { return strings.HasSuffix(s, " B") || strings.HasSuffix(s, "KiB") })
	if n := tab.count(t, `#card-nums_feed .state-table`); n != 0 {
		t.Errorf("a stateless stream shows %d state tables", n)
	}

	tab.do(t, "opening the plan", chromedp.Click(chromedp.CSS(`#card-nums_feed details.plan summary`)))
	tab.waitText(t, `#card-nums_feed .plan-text`, "the plan", func(s string) bool {
		return strings.Contains(s, "== Streaming Plan ==") && strings.Contains(s, "Stream nums_feed") && strings.Contains(s, "Sink numsout")
	})
	tab.do(t, "opening the dead letters", chromedp.Click(chromedp.CSS(`#card-nums_feed details.dead summary`)),
		chromedp.WaitVisible(chromedp.CSS(`#card-nums_feed .dead-table tbody tr`)))
	if n := tab.count(t, `#card-nums_feed .dead-table tbody tr`); n != 2 {
		t.Errorf("the dead-letter browser shows %d rows, want 2", n)
	}
	rows := tab.waitText(t, `#card-nums_feed .dead-table`, "the dead letters", func(s string) bool { return true })
	for _, want := range []string{"part0.json", "\t3\t", "not json", "cannot cast 'x' to BIGINT"} {
		if !strings.Contains(rows, want) {
			t.Errorf("dead letters %q lack %q", rows, want)
		}
	}
	tab.do(t, "a view's dead letters", chromedp.Click(chromedp.CSS(`#card-names details.dead summary`)))
	tab.waitText(t, `#card-names .dead-body`, "no dead letters", func(s string) bool { return strings.HasPrefix(s, "No dead_letter_location") })
	tab.noProblems(t, "read user")
}
