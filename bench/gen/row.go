package gen

import (
	"math"
	"math/rand/v2"
	"strconv"
	"time"
)

// Row is one synthetic access-log record. Strings point into the shared
// pools, so generating a row allocates nothing.
type Row struct {
	TimestampMs int64 // milliseconds since the Unix epoch, UTC
	ClientIP    string
	Method      string
	Path        string
	Status      int32
	Bytes       int64
	LatencyMs   float64 // rounded to microseconds so text and binary agree
	UserAgent   string
	Country     string
	City        string
	Tags        []string // 0 to 3 distinct tags; reused between rows
}

// Start is the first timestamp of every data set; rows spread over Span.
var (
	Start = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	Span  = 72 * time.Hour
)

// rowGen produces the rows of one file: global rows [first, first+n) of a
// data set of total rows. Everything random comes from its own PCG stream,
// seeded by (seed, file), so files can be generated in any order or in
// parallel and still come out byte-identical.
type rowGen struct {
	r       *rand.Rand
	p       *pools
	client  *rand.Zipf
	path    *rand.Zipf
	ua      *rand.Zipf
	first   int64
	total   int64
	next    int64
	tagsBuf [3]string
}

func newRowGen(p *pools, seed uint64, file int, first, total int64) *rowGen {
	r := rand.New(rand.NewPCG(seed, 0x66696c65<<16|uint64(file))) // "file"
	return &rowGen{
		r:      r,
		p:      p,
		client: rand.NewZipf(r, 1.15, 8, uint64(len(p.clients)-1)),
		path:   rand.NewZipf(r, 1.1, 4, uint64(len(p.paths)-1)),
		ua:     rand.NewZipf(r, 1.3, 1.1, uint64(len(userAgents)-1)),
		first:  first,
		next:   first,
		total:  total,
	}
}

var tagCounts = newWeighted(40, 35, 17, 8)

func (g *rowGen) fill(row *Row) {
	r := g.r
	spanMs := Span.Milliseconds()
	base := Start.UnixMilli() + int64(float64(g.next)*float64(spanMs)/float64(g.total))
	g.next++
	jitter := int64(r.IntN(4001)) - 2000
	if r.IntN(100) == 0 {
		// About 1% of rows arrive late by up to five minutes, which is what
		// watermarks exist for.
		jitter -= int64(r.IntN(300_000))
	}
	row.TimestampMs = base + jitter

	c := &g.p.clients[g.client.Uint64()]
	row.ClientIP, row.Country, row.City = c.ip, c.country, c.city
	row.Method = methods[methodWeights.pick(r)]
	row.Path = g.p.paths[g.path.Uint64()]
	row.Status = statuses[statusWeights.pick(r)]
	switch {
	case row.Status == 204 || row.Status == 304:
		row.Bytes = 0
	default:
		row.Bytes = int64(math.Exp(7.6 + 1.3*r.NormFloat64()))
	}
	lat := math.Exp(3.0 + 0.9*r.NormFloat64())
	if row.Status >= 500 {
		lat *= 4
	}
	row.LatencyMs = math.Round(lat*1000) / 1000
	row.UserAgent = userAgents[g.ua.Uint64()]

	n := tagCounts.pick(r)
	row.Tags = g.tagsBuf[:0]
	for len(row.Tags) < n {
		t := allTags[r.IntN(len(allTags))]
		dup := false
		for _, x := range row.Tags {
			dup = dup || x == t
		}
		if !dup {
			row.Tags = append(row.Tags, t)
		}
	}
}

// tsFormatter writes ISO-8601 UTC timestamps with milliseconds, caching
// the date-and-second prefix because consecutive rows mostly share it.
type tsFormatter struct {
	sec    int64
	prefix []byte // "2026-11-01T00:00:00"
}

func (f *tsFormatter) appendTS(b []byte, ms int64) []byte {
	sec, frac := ms/1000, ms%1000
	if frac < 0 {
		sec, frac = sec-1, frac+1000
	}
	if f.prefix == nil || sec != f.sec {
		f.sec = sec
		f.prefix = time.Unix(sec, 0).UTC().AppendFormat(f.prefix[:0], "2006-01-02T15:04:05")
	}
	b = append(b, f.prefix...)
	b = append(b, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10), 'Z')
	return b
}

// appendLatency prints latency_ms with up to three decimals, the same
// digits the Parquet DOUBLE holds.
func appendLatency(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}
