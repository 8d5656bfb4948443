package opensearch

import "bytes"

// BulkBody is the _bulk body the sink sends for docs with action, for the
// node-free benchmark in the external test package.
func BulkBody(docs []Doc, action string) []byte {
	b := &bulker{o: Options{Action: action}}
	var w bytes.Buffer
	b.encode(&w, docs)
	return w.Bytes()
}
