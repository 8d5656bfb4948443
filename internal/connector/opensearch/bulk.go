package opensearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fastjson"
)

// Stats count what a sink did, for tests, progress and EXPLAIN ANALYZE.
type Stats struct {
	Indexed      int64 // documents the cluster accepted
	DeadLettered int64 // documents rejected for good
	Retries      int64 // bulk requests (or parts) sent again
	Requests     int64 // bulk requests sent, retries included
	// Refused counts documents the cluster turned away with 429 (the
	// whole request or its items), each time; Refusals the responses
	// that did, RefusedRequests those of them that were HTTP 429 (the
	// rest refused some items). Every refused document is sent again.
	Refused, Refusals, RefusedRequests int64
	// BulkBytes and InFlight are the request size and the requests in
	// flight the sink has adapted to now (see sizer).
	BulkBytes, InFlight int
}

// bulker batches documents into _bulk requests of the sizer's current
// byte size (at most BulkActions documents), keeps at most the sizer's
// limit of them in flight (Concurrency at most) and Concurrency more
// encoded and queued (a
// full pipeline blocks add: that is the backpressure on the reader), and
// retries what the cluster could not take yet. The request body is
// encoded by add's caller, so a worker that gets an answer sends the next
// body at once while the caller goes on decoding and encoding: the node
// is never idle waiting for the loader's CPU.
type bulker struct {
	cl     *client
	o      Options
	action string
	ctx    context.Context // lives until close; cancels retries
	cancel context.CancelFunc

	reqs    chan bulkReq
	pending sync.WaitGroup // dispatched, not yet finished
	workers sync.WaitGroup

	mu       sync.Mutex
	cur      []Doc
	curBytes int
	last     time.Time
	lastN    int // about the documents of a full request, to size cur

	errMu    sync.Mutex
	firstErr error
	dead     [][]byte // dead-letter lines since the last takeDead

	sz *sizer

	indexed, deadN, retries, requests  atomic.Int64
	refusedDocs, refusals, refusedReqs atomic.Int64
	tick                               *time.Ticker
	done                               chan struct{}
}

func newBulker(cl *client, o Options) *bulker {
	ctx, cancel := context.WithCancel(context.Background())
	b := &bulker{cl: cl, o: o, ctx: ctx, cancel: cancel, reqs: make(chan bulkReq, o.Concurrency),
		last: time.Now(), done: make(chan struct{}), sz: newSizer(o.BulkBytes, o.Concurrency, slowResponse)}
	for i := 0; i < o.Concurrency; i++ {
		b.workers.Add(1)
		go b.worker()
	}
	b.tick = time.NewTicker(o.FlushInterval)
	go b.ticker()
	return b
}

// add queues documents, sending a request each time a limit is reached.
// The lock is taken once for each request's worth of them.
func (b *bulker) add(ctx context.Context, docs []Doc) error {
	for len(docs) > 0 {
		b.mu.Lock()
		limit, i := b.sz.size(), 0
		var full []Doc
		for i < len(docs) {
			if b.cur == nil {
				b.cur = make([]Doc, 0, b.lastN)
			}
			b.cur = append(b.cur, docs[i])
			b.curBytes += docBytes(&docs[i])
			i++
			if len(b.cur) >= b.o.BulkActions || b.curBytes >= limit {
				full = b.take()
				break
			}
		}
		b.mu.Unlock()
		docs = docs[i:]
		if full != nil {
			if err := b.dispatch(ctx, full); err != nil {
				return err
			}
		}
	}
	return b.err()
}

// take empties the current request; b.mu is held.
func (b *bulker) take() []Doc {
	out := b.cur
	b.cur, b.curBytes, b.last = nil, 0, time.Now()
	b.lastN = max(b.lastN, len(out)+len(out)/8)
	return out
}

// bulkReq is one request: its documents and their encoded body.
type bulkReq struct {
	docs []Doc
	body []byte
}

func (b *bulker) dispatch(ctx context.Context, docs []Doc) error {
	var body bytes.Buffer
	b.encode(&body, docs)
	b.pending.Add(1)
	select {
	case b.reqs <- bulkReq{docs, body.Bytes()}:
		return nil
	case <-ctx.Done():
		b.pending.Done()
		return ctx.Err()
	case <-b.ctx.Done():
		b.pending.Done()
		return b.ctx.Err()
	}
}

// ticker sends a partial request that has waited a flush interval.
func (b *bulker) ticker() {
	for {
		select {
		case <-b.done:
			return
		case <-b.tick.C:
			b.mu.Lock()
			var docs []Doc
			if len(b.cur) > 0 && time.Since(b.last) >= b.o.FlushInterval {
				docs = b.take()
			}
			b.mu.Unlock()
			if docs != nil {
				_ = b.dispatch(b.ctx, docs)
			}
		}
	}
}

// flush sends what is queued and waits for every request in flight.
func (b *bulker) flush(ctx context.Context) error {
	b.mu.Lock()
	docs := b.take()
	b.mu.Unlock()
	if len(docs) > 0 {
		if err := b.dispatch(ctx, docs); err != nil {
			return err
		}
	}
	wait := make(chan struct{})
	go func() { b.pending.Wait(); close(wait) }()
	select {
	case <-wait:
	case <-ctx.Done():
		return ctx.Err()
	}
	return b.err()
}

func (b *bulker) close() {
	b.tick.Stop()
	close(b.done)
	b.cancel()
	close(b.reqs)
	b.workers.Wait()
}

func (b *bulker) err() error {
	b.errMu.Lock()
	defer b.errMu.Unlock()
	return b.firstErr
}

func (b *bulker) fail(err error) {
	b.errMu.Lock()
	if b.firstErr == nil {
		b.firstErr = err
	}
	b.errMu.Unlock()
}

func (b *bulker) worker() {
	defer b.workers.Done()
	var resp bytes.Buffer // the answers, one after the other
	for r := range b.reqs {
		if err := b.send(r.docs, r.body, &resp); err != nil {
			b.fail(err)
		}
		b.pending.Done()
	}
}

// retryable reports the statuses that mean "not now" rather than "never".
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusBadGateway ||
		status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout
}

// bulkFilter keeps of a _bulk answer what items reads: whether any item
// failed and each item's status and error, in order. The rest (index,
// id, version, shards, sequence numbers) is most of an answer's bytes.
const bulkFilter = "errors,items.*.status,items.*.error"

// send writes docs (first is their encoding) and sends again what the
// cluster refuses for now, split to the sizer's current request size:
// after a network error or a retryable status the whole part, after a
// partial failure only the refused items (they keep their ids, so a
// document is indexed once however often it is sent). Every attempt
// takes a slot in flight from the sizer and tells it how the cluster
// answered. It gives up when RetryTime passes without a document
// accepted.
func (b *bulker) send(docs []Doc, first []byte, resp *bytes.Buffer) error {
	path := "/_bulk?filter_path=" + bulkFilter
	if b.o.Refresh != "" && b.o.Refresh != "false" {
		path += "&refresh=" + b.o.Refresh
	}
	var buf bytes.Buffer
	var lastErr error
	since := time.Now() // the last progress
	attempt := 0        // failed attempts since the last clean one
	body, n := first, len(docs)
	for len(docs) > 0 {
		if body != nil && n > 1 && len(body) > 2*b.sz.size() {
			body = nil // queued before the sizer shrank: split it
		}
		if body == nil {
			n = b.fit(docs)
			buf.Reset()
			b.encode(&buf, docs[:n])
			body = buf.Bytes()
		}
		part := docs[:n]
		again, err := b.attempt(path, part, body, resp, &lastErr)
		if err != nil {
			return err
		}
		if len(again) < len(part) {
			since = time.Now()
		}
		docs = append(again, docs[n:]...)
		body = nil
		if len(again) == 0 {
			attempt = 0
			continue
		}
		attempt++
		b.retries.Add(1)
		if time.Since(since) >= b.o.RetryTime {
			return fmt.Errorf("bulk indexing: giving up after %s without progress with %d documents not indexed: %w", b.o.RetryTime, len(docs), lastErr)
		}
		if err := sleep(b.ctx, backoff(b.o.RetryBase, attempt, b.o.RetryTime-time.Since(since))); err != nil {
			return fmt.Errorf("bulk indexing: %w", err)
		}
	}
	return nil
}

// attempt sends one request of part (encoded as body) and returns the
// documents to send again; *lastErr says why they were not taken. An
// error is final.
func (b *bulker) attempt(path string, part []Doc, body []byte, out *bytes.Buffer, lastErr *error) ([]Doc, error) {
	gen, err := b.sz.acquire(b.ctx)
	if err != nil {
		return nil, fmt.Errorf("bulk indexing: %w", err)
	}
	b.requests.Add(1)
	start := time.Now()
	status, err := b.cl.doInto(b.ctx, http.MethodPost, path, body, out, true)
	resp := out.Bytes()
	took := time.Since(start)
	b.sz.release()
	switch {
	case err != nil:
		if b.ctx.Err() != nil {
			return nil, fmt.Errorf("bulk indexing: %w", b.ctx.Err())
		}
		*lastErr = err
		return part, nil
	case status == http.StatusTooManyRequests:
		// The whole request turned away: the node's indexing pressure
		// (request bytes) or a full queue.
		*lastErr = statusErr("bulk", status, resp)
		b.refusedDocs.Add(int64(len(part)))
		b.refusals.Add(1)
		b.refusedReqs.Add(1)
		b.sz.observe(gen, len(body), true, took)
		return part, nil
	case retryable(status):
		*lastErr = statusErr("bulk", status, resp)
		return part, nil
	case status >= 300:
		return nil, statusErr("bulk indexing", status, resp)
	}
	again, refused, err := b.items(part, resp)
	if err != nil {
		return nil, err
	}
	if refused > 0 {
		b.refusedDocs.Add(int64(refused))
		b.refusals.Add(1)
	}
	b.sz.observe(gen, len(body), refused > 0, took)
	if len(again) > 0 {
		*lastErr = fmt.Errorf("%d documents refused for now (e.g. HTTP 429)", len(again))
	}
	return again, nil
}

// fit is how many documents from the front of docs make one request of
// the sizer's current size (at least one, at most BulkActions).
func (b *bulker) fit(docs []Doc) int {
	limit, size := b.sz.size(), 0
	for i := range docs {
		size += docBytes(&docs[i])
		if i > 0 && size > limit || i == b.o.BulkActions {
			return i
		}
	}
	return len(docs)
}

// docBytes is about what a document adds to a request body.
func docBytes(d *Doc) int { return len(d.Source) + len(d.ID) + len(d.Index) + 64 }

// items reads a bulk response: accepted items are counted, items refused
// for now are returned for another try (refused of them with 429), the
// rest are dead-lettered.
func (b *bulker) items(docs []Doc, resp []byte) (next []Doc, refused int, err error) {
	if noErrors(resp) {
		b.indexed.Add(int64(len(docs)))
		return nil, 0, nil
	}
	v, err := fastjson.ParseBytes(resp)
	if err != nil {
		return nil, 0, fmt.Errorf("bulk indexing: reading the response: %w", err)
	}
	if !v.GetBool("errors") {
		b.indexed.Add(int64(len(docs)))
		return nil, 0, nil
	}
	items := v.GetArray("items")
	if len(items) != len(docs) {
		return nil, 0, fmt.Errorf("bulk indexing: %d items answered for %d sent", len(items), len(docs))
	}
	for i, it := range items {
		o, err := it.Object()
		if err != nil {
			return nil, 0, fmt.Errorf("bulk indexing: bad item in the response: %w", err)
		}
		var r *fastjson.Value
		o.Visit(func(_ []byte, x *fastjson.Value) { r = x })
		if r == nil {
			return nil, 0, fmt.Errorf("bulk indexing: empty item in the response")
		}
		st := r.GetInt("status")
		switch {
		case st < 300 || (st == http.StatusConflict && b.o.Action == "create"):
			// A create that finds the document is a replay: it is there.
			b.indexed.Add(1)
		case retryable(st):
			if st == http.StatusTooManyRequests {
				refused++
			}
			next = append(next, docs[i])
		default:
			reason := string(r.Get("error").MarshalTo(nil))
			b.deadLetter(docs[i], st, reason)
		}
	}
	return next, refused, nil
}

// noErrors reports whether a bulk response says "errors":false before
// its items: OpenSearch writes took (unless filtered out) then errors
// first, so the common answer is known from its first bytes without
// parsing a thousand items. Any other shape (spacing, order) returns
// false and gets parsed.
func noErrors(resp []byte) bool {
	rest, ok := bytes.CutPrefix(resp, []byte(`{"errors":false`))
	if !ok {
		if rest, ok = bytes.CutPrefix(resp, []byte(`{"took":`)); !ok {
			return false
		}
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		rest, ok = bytes.CutPrefix(rest[i:], []byte(`,"errors":false`))
		ok = ok && i > 0
	}
	return ok && len(rest) > 0 && (rest[0] == ',' || rest[0] == '}')
}

// deadLetter records a document the cluster will never take.
func (b *bulker) deadLetter(d Doc, status int, reason string) {
	b.deadN.Add(1)
	line := deadLine(d, b.o.Index, status, reason)
	b.errMu.Lock()
	b.dead = append(b.dead, line)
	b.errMu.Unlock()
}

// deadLine is one dead-letter record: the document, where it was going
// and why it was refused.
func deadLine(d Doc, pattern string, status int, reason string) []byte {
	rec := struct {
		Index    string          `json:"index"`
		ID       string          `json:"id"`
		Status   int             `json:"status,omitempty"`
		Reason   json.RawMessage `json:"reason"`
		Document json.RawMessage `json:"document"`
	}{Index: d.Index, ID: d.ID, Status: status, Document: d.Source}
	if rec.Index == "" {
		rec.Index = pattern
	}
	if json.Valid([]byte(reason)) && reason != "" {
		rec.Reason = json.RawMessage(reason)
	} else {
		rec.Reason, _ = json.Marshal(reason)
	}
	line, _ := json.Marshal(rec)
	return append(line, '\n')
}

func (b *bulker) takeDead() [][]byte {
	b.errMu.Lock()
	defer b.errMu.Unlock()
	out := b.dead
	b.dead = nil
	return out
}

// encode writes docs as a _bulk body.
func (b *bulker) encode(w *bytes.Buffer, docs []Doc) {
	size := 0
	for i := range docs {
		size += len(docs[i].Source) + len(docs[i].ID) + len(docs[i].Index) + 48
	}
	w.Grow(size)
	op := b.o.Action
	if op == "upsert" {
		op = "update"
	}
	// The action line up to the id, written once for each run of
	// documents into the same index (most often all of them).
	var prefix bytes.Buffer
	for i := range docs {
		d := &docs[i]
		if i == 0 || d.Index != docs[i-1].Index {
			prefix.Reset()
			prefix.WriteString(`{"`)
			prefix.WriteString(op)
			prefix.WriteString(`":{"_index":`)
			writeJSONString(&prefix, d.Index)
			prefix.WriteString(`,"_id":`)
		}
		w.Write(prefix.Bytes())
		appendAction(w, op, d)
	}
}

// appendAction writes the rest of d's action, after its id's key, and
// its source.
func appendAction(w *bytes.Buffer, op string, d *Doc) {
	writeJSONString(w, d.ID)
	if d.Routing != "" {
		w.WriteString(`,"routing":`)
		writeJSONString(w, d.Routing)
	}
	if op == "update" {
		w.WriteString(`,"retry_on_conflict":3}}` + "\n" + `{"doc_as_upsert":true,"doc":`)
		w.Write(d.Source)
		w.WriteString("}\n")
		return
	}
	w.WriteString("}}\n")
	w.Write(d.Source)
	w.WriteByte('\n')
}

// writeJSONString writes s quoted; ids and index names are plain ASCII
// almost always, which are written as they are instead of through
// json.Marshal's allocation.
func writeJSONString(w *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		if !plainJSON[s[i]] {
			writeMarshal(w, s)
			return
		}
	}
	w.WriteByte('"')
	w.WriteString(s)
	w.WriteByte('"')
}

// plainJSON are the bytes json.Marshal writes as they are in a string.
var plainJSON = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

func writeMarshal(w *bytes.Buffer, s string) {
	b, _ := json.Marshal(s)
	w.Write(b)
}

// backoff is exponential with equal jitter, capped at 5 s and at what is
// left of the retry time.
func backoff(base time.Duration, attempt int, left time.Duration) time.Duration {
	d := base << min(attempt-1, 10)
	if d > 5*time.Second {
		d = 5 * time.Second
	}
	d = d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
	if left > 0 && d > left {
		d = left
	}
	return d
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// withRetry runs fn until it succeeds, fails for good, or the retry time
// is up; fn reports whether its error is worth another try.
func withRetry(ctx context.Context, o Options, what string, fn func() (retry bool, err error)) error {
	start := time.Now()
	for attempt := 0; ; attempt++ {
		retry, err := fn()
		if err == nil {
			return nil
		}
		if !retry || time.Since(start) >= o.RetryTime || ctx.Err() != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if serr := sleep(ctx, backoff(o.RetryBase, attempt+1, o.RetryTime-time.Since(start))); serr != nil {
			return fmt.Errorf("%s: %w", what, errors.Join(err, serr))
		}
	}
}
