package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"time"
)

type geo struct {
	Country string `json:"country"`
	City    string `json:"city"`
}

// logLine is one access-log record; field order is the JSON key order.
type logLine struct {
	Timestamp string   `json:"@timestamp"`
	ClientIP  string   `json:"clientip"`
	Request   string   `json:"request"`
	Status    int      `json:"status"`
	Size      int64    `json:"size"`
	LatencyMS float64  `json:"latency_ms"`
	UserAgent *string  `json:"user_agent"`
	Geo       *geo     `json:"geo,omitempty"`
	Tags      []string `json:"tags"`
}

var (
	cities = []geo{
		{"FR", "Paris"}, {"FR", "Lyon"}, {"DE", "Berlin"}, {"US", "Seattle"}, {"US", "New York"},
		{"JP", "Tokyo"}, {"BR", "São Paulo"}, {"IN", "Bengaluru"}, {"GB", "London"},
	}
	paths = []string{
		"/", "/login", "/logout", "/search?q=shoes", "/api/v1/orders", "/api/v1/orders/%d",
		"/api/v1/cart", "/static/app.js", "/static/style.css", "/images/logo.png", "/checkout",
	}
	pathWeights = []int{10, 6, 2, 6, 8, 8, 6, 10, 6, 6, 3}
	methods     = []string{"GET", "POST", "PUT", "DELETE"}
	agents      = []string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/133.0",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) Safari/605.1.15",
		"Mozilla/5.0 (Linux; Android 15) Chrome/131.0 Mobile",
		"curl/8.10.1",
		"Googlebot/2.1 (+http://www.google.com/bot.html)",
	}
	statuses       = []int{200, 201, 204, 301, 304, 400, 401, 404, 500, 503}
	statusWeights  = []int{60, 5, 3, 3, 8, 3, 3, 8, 4, 3}
	logDays        = []string{"2026-11-28", "2026-11-29", "2026-11-30"}
	linesPerDay    = []int{110, 120, 130}
	compressedDays = map[string]bool{"2026-11-29": true, "2026-11-30": true}
)

// httpLogs writes testdata/sample/http_logs/date=YYYY-MM-DD/part-00000.json[.gz].
func httpLogs(files map[string][]byte) error {
	r := rng(20261130)
	var ips []string
	for i := 0; i < 40; i++ {
		prefix := []string{"192.0.2.", "198.51.100.", "203.0.113."}[i%3]
		ips = append(ips, fmt.Sprintf("%s%d", prefix, 10+r.intn(240)))
	}
	for d, day := range logDays {
		start, _ := time.Parse("2006-01-02", day)
		t := start
		var buf bytes.Buffer
		for i := 0; i < linesPerDay[d]; i++ {
			// Steps average a day over the lines, so each file covers its day.
			step := 86400 / (linesPerDay[d] + 1)
			t = t.Add(time.Duration(step/2+r.intn(step))*time.Second + time.Duration(r.intn(1000))*time.Millisecond)
			path := pick(&r, paths, pathWeights)
			if path == "/api/v1/orders/%d" {
				path = fmt.Sprintf(path, 1000+r.intn(9000))
			}
			method := "GET"
			if len(path) > 4 && path[:4] == "/api" || path == "/login" || path == "/checkout" {
				method = pick(&r, methods, []int{5, 3, 1, 1})
			}
			status := pick(&r, statuses, statusWeights)
			line := logLine{
				Timestamp: t.Format("2006-01-02T15:04:05.000Z"),
				ClientIP:  ips[r.intn(len(ips))],
				Request:   method + " " + path + " HTTP/1.1",
				Status:    status,
				Size:      int64(200 + r.intn(50000)),
				LatencyMS: float64(1+r.intn(250000)) / 100,
				Tags:      []string{},
			}
			if status == 304 || status == 204 {
				line.Size = 0
			}
			if r.intn(12) != 0 {
				ua := agents[r.intn(len(agents))]
				line.UserAgent = &ua
			}
			if r.intn(10) != 0 {
				g := cities[r.intn(len(cities))]
				line.Geo = &g
			}
			if len(path) > 4 && path[:4] == "/api" {
				line.Tags = append(line.Tags, "api")
			}
			if line.UserAgent != nil && bytes.Contains([]byte(*line.UserAgent), []byte("Mobile")) {
				line.Tags = append(line.Tags, "mobile")
			}
			if status >= 500 {
				line.Tags = append(line.Tags, "error")
			}
			b, err := json.Marshal(line)
			if err != nil {
				return fmt.Errorf("encoding log line: %w", err)
			}
			buf.Write(b)
			buf.WriteByte('\n')
		}
		name := fmt.Sprintf("sample/http_logs/date=%s/part-00000.json", day)
		if compressedDays[day] {
			gz, err := gzipBytes(buf.Bytes())
			if err != nil {
				return err
			}
			files[name+".gz"] = gz
		} else {
			files[name] = buf.Bytes()
		}
	}
	return nil
}

// gzipBytes compresses with an empty header (no name, zero mtime) so the
// output depends only on the input.
func gzipBytes(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(data); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return buf.Bytes(), nil
}
