package gen

import (
	"fmt"
	"math/rand/v2"
)

// userAgents are real browser, bot and tool strings, ordered by how often
// they are drawn (Zipf): an API service sees HTTP libraries and probes as
// often as browsers. None holds a quote or
// backslash, so NDJSON and CSV writers never need to escape them; commas
// (KHTML, like Gecko) do force CSV quoting, which is realistic.
var userAgents = []string{
	"curl/8.5.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
	"python-requests/2.32.3",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
	"Go-http-client/2.0",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
	"okhttp/4.12.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
	"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36",
	"Wget/1.21.4",
	"Prometheus/2.55.1",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
	"kube-probe/1.31",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
	"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.39 Mobile Safari/537.36",
	"Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.7 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0",
	"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_6_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
	"Mozilla/5.0 (Windows NT 6.1; Win64; x64; Trident/7.0; rv:11.0) like Gecko",
	"Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
	"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
	"Mozilla/5.0 (Linux; Android 12; moto g(60)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Safari/537.36 Vivaldi/6.9",
	"Mozilla/5.0 (compatible; DuckDuckBot-Https/1.1; https://duckduckgo.com/duckduckbot)",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15",
}

// place is a country with its cities; weight is its share of clients.
type place struct {
	country string
	cities  []string
	weight  int
}

var places = []place{
	{"US", []string{"New York", "Los Angeles", "Chicago", "Seattle", "Austin"}, 30},
	{"DE", []string{"Berlin", "Munich", "Hamburg", "Frankfurt"}, 9},
	{"GB", []string{"London", "Manchester", "Edinburgh"}, 8},
	{"IN", []string{"Mumbai", "Bangalore", "Delhi", "Chennai"}, 8},
	{"FR", []string{"Paris", "Lyon", "Marseille"}, 6},
	{"JP", []string{"Tokyo", "Osaka", "Nagoya"}, 6},
	{"BR", []string{"São Paulo", "Rio de Janeiro", "Belo Horizonte"}, 5},
	{"CA", []string{"Toronto", "Vancouver", "Montréal"}, 4},
	{"AU", []string{"Sydney", "Melbourne", "Brisbane"}, 3},
	{"NL", []string{"Amsterdam", "Rotterdam"}, 3},
	{"ES", []string{"Madrid", "Barcelona", "Valencia"}, 3},
	{"IT", []string{"Rome", "Milan", "Turin"}, 3},
	{"KR", []string{"Seoul", "Busan"}, 2},
	{"SG", []string{"Singapore"}, 2},
	{"SE", []string{"Stockholm", "Gothenburg"}, 2},
	{"PL", []string{"Warsaw", "Kraków"}, 2},
	{"MX", []string{"Mexico City", "Guadalajara"}, 2},
	{"ZA", []string{"Johannesburg", "Cape Town"}, 1},
	{"CH", []string{"Zürich", "Geneva"}, 1},
}

var allTags = []string{"api", "auth", "beta", "bot", "cached", "canary", "cdn", "internal", "mobile", "retry", "slow", "static"}

// weighted picks an index with probability proportional to its weight.
type weighted struct {
	cum   []uint32
	total uint32
}

func newWeighted(weights ...uint32) weighted {
	w := weighted{cum: make([]uint32, len(weights))}
	for i, x := range weights {
		w.total += x
		w.cum[i] = w.total
	}
	return w
}

func (w weighted) pick(r *rand.Rand) int {
	x := r.Uint32N(w.total)
	for i, c := range w.cum {
		if x < c {
			return i
		}
	}
	return len(w.cum) - 1
}

var methods = []string{"GET", "POST", "PUT", "DELETE"}
var methodWeights = newWeighted(80, 12, 5, 3)

// statuses and their weights (per 10,000 requests): about 1.6% 5xx.
var statuses = []int32{200, 201, 204, 206, 301, 302, 304, 400, 401, 403, 404, 429, 500, 502, 503, 504}
var statusWeights = newWeighted(7950, 250, 150, 50, 150, 300, 400, 150, 100, 50, 220, 20, 80, 40, 30, 10)

// client is one IP address and where it is.
type client struct {
	ip      string
	country string
	city    string
}

// pools are the value sets rows draw from; built once per seed so every
// file of a data set shares them.
type pools struct {
	clients []client
	paths   []string
}

const (
	numClients = 20000
	numPaths   = 300
)

func newPools(seed uint64) *pools {
	r := rand.New(rand.NewPCG(seed, 0x706f6f6c73)) // "pools"
	p := &pools{}
	var placeW []uint32
	for _, pl := range places {
		placeW = append(placeW, uint32(pl.weight))
	}
	pw := newWeighted(placeW...)
	seen := make(map[string]bool, numClients)
	for len(p.clients) < numClients {
		a := 1 + r.IntN(223)
		if a == 10 || a == 127 || a == 100 || a == 172 || a == 192 {
			continue // keep clearly private and loopback ranges out
		}
		ip := fmt.Sprintf("%d.%d.%d.%d", a, r.IntN(256), r.IntN(256), 1+r.IntN(254))
		if seen[ip] {
			continue
		}
		seen[ip] = true
		pl := places[pw.pick(r)]
		// The first city of a country is the biggest.
		ci := 0
		if len(pl.cities) > 1 && r.IntN(2) == 1 {
			ci = 1 + r.IntN(len(pl.cities)-1)
		}
		p.clients = append(p.clients, client{ip: ip, country: pl.country, city: pl.cities[ci]})
	}
	p.paths = makePaths(r)
	return p
}

var fixedPaths = []string{
	"/", "/index.html", "/login", "/logout", "/search", "/cart", "/checkout", "/favicon.ico",
	"/robots.txt", "/healthz", "/metrics", "/api/v1/session", "/api/v1/search", "/about", "/contact",
	"/pricing", "/signup", "/account/settings", "/account/orders", "/sitemap.xml",
}

var pathTemplates = []func(r *rand.Rand) string{
	func(r *rand.Rand) string { return fmt.Sprintf("/api/v1/users/%d", 1000+r.IntN(90000)) },
	func(r *rand.Rand) string { return fmt.Sprintf("/api/v1/orders/%d", 500000+r.IntN(400000)) },
	func(r *rand.Rand) string { return fmt.Sprintf("/api/v2/products/%d/reviews", 10+r.IntN(9000)) },
	func(r *rand.Rand) string { return fmt.Sprintf("/products/%d", 10+r.IntN(9000)) },
	func(r *rand.Rand) string { return fmt.Sprintf("/static/js/app.%08x.js", r.Uint32()) },
	func(r *rand.Rand) string { return fmt.Sprintf("/static/css/site.%08x.css", r.Uint32()) },
	func(r *rand.Rand) string { return fmt.Sprintf("/images/catalog/%d.jpg", 100+r.IntN(90000)) },
	func(r *rand.Rand) string { return fmt.Sprintf("/blog/2026/%02d/post-%d", 1+r.IntN(12), 1+r.IntN(400)) },
	func(r *rand.Rand) string { return fmt.Sprintf("/docs/v%d/guide/page-%d", 1+r.IntN(3), 1+r.IntN(200)) },
	func(r *rand.Rand) string { return fmt.Sprintf("/category/%d", 1+r.IntN(300)) },
}

func makePaths(r *rand.Rand) []string {
	paths := append([]string(nil), fixedPaths...)
	seen := make(map[string]bool, numPaths)
	for _, p := range paths {
		seen[p] = true
	}
	for len(paths) < numPaths {
		p := pathTemplates[r.IntN(len(pathTemplates))](r)
		if !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	return paths
}
