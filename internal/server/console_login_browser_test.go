package server

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestConsoleSignIn: a browser without credentials gets the console's
// sign-in page (no browser password dialog, no data), a wrong token is
// refused there, an API token signs in and the console works with it
// (the read token sees streams and no buttons; the admin token stops a
// stream, so the anti-CSRF token from whoami is sent), a user and
// password sign in too, and signing out returns to the page.
func TestConsoleSignIn(t *testing.T) {
	chromium := chromiumPath(t)
	f := newAuthFixture(t, nil)
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE out (id BIGINT, name STRING) USING json LOCATION '"+filepath.Join(f.dir, "out")+"/'")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'feed', trigger = '200 milliseconds')")
	bctx := startChromium(t, chromium)

	tab := newTab(t, bctx, "", "")
	tab.do(t, "loading the console without credentials", chromedp.Navigate(f.url+"/"), chromedp.WaitVisible(chromedp.CSS("#login-form")))
	if n := tab.count(t, `#stream-table tbody tr`); n != 0 {
		t.Errorf("the sign-in page shows %d streams", n)
	}
	visible, err := chromedp.Run(tab.ctx, chromedp.Evaluate[bool](`!document.querySelector("#main").hidden`))
	if err != nil || visible {
		t.Errorf("the console shows behind the sign-in page (%v)", err)
	}
	tab.do(t, "a wrong token", chromedp.SetValue(chromedp.CSS("#login-token"), "sluice_nope"), chromedp.Click(chromedp.CSS("#login-submit")))
	tab.waitText(t, "#login-error", "a refused sign-in", func(s string) bool { return strings.HasPrefix(s, "Sign-in failed: the token") })

	tab.do(t, "the read token", chromedp.SetValue(chromedp.CSS("#login-token"), f.readTok), chromedp.Click(chromedp.CSS("#login-submit")),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-stream="feed"] .state.running`)))
	tab.waitText(t, "#who", "who", func(s string) bool { return s == "token:reader · read" })
	if n := tab.count(t, "button[data-action]"); n != 0 {
		t.Errorf("a read token is offered %d start/stop buttons", n)
	}
	// Reloading keeps the tab signed in (session storage).
	tab.do(t, "reloading", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`tr[data-stream="feed"] .state.running`)))
	tab.do(t, "signing out", chromedp.Click(chromedp.CSS("#sign-out")), chromedp.WaitVisible(chromedp.CSS("#login-form")))
	tab.waitText(t, "#login-error", "signed out", func(s string) bool { return s == "Signed out." })

	tab.do(t, "the admin token", chromedp.SetValue(chromedp.CSS("#login-token"), f.adminTok), chromedp.Click(chromedp.CSS("#login-submit")),
		chromedp.WaitVisible(chromedp.CSS(`#card-feed button[data-action="stop"]`)))
	tab.waitText(t, "#who", "who", func(s string) bool { return s == "token:ops · admin" })
	tab.do(t, "stopping", chromedp.Click(chromedp.CSS(`#card-feed button[data-action="stop"]`)))
	tab.waitText(t, `tr[data-stream="feed"] .state`, "state after stop", func(s string) bool { return s == "stopped" })
	tab.do(t, "signing out", chromedp.Click(chromedp.CSS("#sign-out")), chromedp.WaitVisible(chromedp.CSS("#login-form")))

	tab.do(t, "a user and password", chromedp.SetValue(chromedp.CSS("#login-user"), "wendy"), chromedp.SetValue(chromedp.CSS("#login-password"), "wendy-pw"),
		chromedp.Click(chromedp.CSS("#login-submit")), chromedp.WaitVisible(chromedp.CSS(`tr[data-stream="feed"]`)))
	tab.waitText(t, "#who", "who", func(s string) bool { return s == "wendy · write" })
	// The refused sign-in and the whoami before it are the only failed loads.
	tab.noProblems(t, "sign-in", "/api/v1/whoami:1 error: Failed to load resource: the server responded with a status of 401")
}
