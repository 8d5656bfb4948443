// Package opensearch is the OpenSearch connector: a sink that bulk-indexes
// rows as documents and a source that reads an index back with the
// query pushed down.
//
//	CREATE TABLE errors (`@timestamp` TIMESTAMP, host STRING, msg STRING, status INT)
//	USING opensearch OPTIONS (
//	  endpoint 'https://search:9200', index 'errors-{@timestamp|yyyy.MM.dd}',
//	  auth 'basic', user 'sluice', password '${env:OS_PASSWORD}',
//	  text_fields 'msg', dead_letter_location 's3://bucket/dead/');
//	INSERT INTO errors SELECT `@timestamp`, host, msg, status FROM logs WHERE status >= 500;
//	SELECT host, count(*) FROM errors WHERE match(msg, 'timeout') GROUP BY host;
//
// Writing: documents get deterministic ids (see Encoder), so a replayed
// epoch overwrites; a missing index is created with mappings derived from
// the schema (Mappings); _bulk requests fill up to bulk_max_bytes (5mb;
// bulk_max_actions documents at most), at most bulk_concurrent_requests
// are in flight (Write blocks beyond that), and 429/502/503/504 and
// network errors are retried with exponential backoff and jitter until
// retry_max_time passes without progress, only the refused items of a
// partly taken request. A 429 (the whole request or some items: the
// cluster is overloaded) also halves the request size and the requests in
// flight, and fast clean responses grow them back to those options, so
// the sink settles at what the cluster takes (sizer). Documents the
// cluster rejects for good go to dead_letter_location as JSON lines
// (index, id, status, reason, document) and are counted in Stats; with no
// location, Flush fails instead: nothing is dropped silently.
//
// Reading: one point in time, paged with search_after; projections become
// _source includes; filters become query DSL (term, terms, range, exists,
// bool, match, match_phrase) that match a superset of the rows (the engine
// re-applies the predicate); simple GROUP BYs can be computed by the
// cluster through connector.AggregatePusher. Describe shows what was pushed, never
// credentials.
//
// # Inside the sink
//
// Bodies are encoded by the writer goroutine; bulk_concurrent_requests
// requests are in flight and as many more may wait queued. sizer.go sizes
// requests by bytes and on a 429 halves the size and the requests in
// flight, growing them back on fast clean answers (AIMD). _bulk answers are
// asked for filtered to errors and each item's status and error, and
// uncompressed. Documents are encoded by format.JSONRows, typed once a
// batch, with ids hashed into one string a batch; counts.go keeps the
// per-epoch row counts in an open-addressing table. The source reads with
// point-in-time paging and pushes down DSL filters and aggregates.
package opensearch
