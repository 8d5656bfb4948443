package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/engine"
	"sluice/internal/types"
)

// sample builds a batch with every kind of value the formatters handle.
func sample(t *testing.T) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	geo := types.Struct(arrow.Field{Name: "country", Type: types.String}, arrow.Field{Name: "city", Type: types.String})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "status", Type: types.Int, Nullable: true},
		{Name: "path", Type: types.String, Nullable: true},
		{Name: "ratio", Type: types.Double, Nullable: true},
		{Name: "ts", Type: types.Timestamp, Nullable: true},
		{Name: "geo", Type: geo, Nullable: true},
		{Name: "tags", Type: types.Array(types.String), Nullable: true},
		{Name: "ok", Type: types.Boolean, Nullable: true},
	}, nil)
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(`[
		{"status": 200, "path": "/index.html", "ratio": 0.5, "ts": "2026-11-30T12:00:00Z",
		 "geo": {"country": "FR", "city": "Paris"}, "tags": ["a", "b"], "ok": true},
		{"status": 404, "path": "say \"hi\", <b>\nbye", "ratio": 1234.25, "ts": "2026-11-30T12:00:00.5Z",
		 "geo": null, "tags": [], "ok": false},
		{"status": null, "path": "", "ratio": null, "ts": null, "geo": {"country": null, "city": "Zürich"}, "tags": null, "ok": null}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rec.Release)
	return schema, []arrow.RecordBatch{rec}
}

func TestFormatters(t *testing.T) {
	schema, batches := sample(t)
	tests := []struct {
		format string
		want   string
	}{
		{"table", `+--------+---------------+---------+-----------------------+----------------------------------+-----------+-------+
| status | path          | ratio   | ts                    | geo                              | tags      | ok    |
+--------+---------------+---------+-----------------------+----------------------------------+-----------+-------+
|    200 | /index.html   |     0.5 | 2026-11-30 12:00:00   | {"country":"FR","city":"Paris"}  | ["a","b"] | true  |
|    404 | say "hi", <b> | 1234.25 | 2026-11-30 12:00:00.5 | NULL                             | []        | false |
|        | bye           |         |                       |                                  |           |       |
|   NULL |               |    NULL | NULL                  | {"country":null,"city":"Zürich"} | NULL      | NULL  |
+--------+---------------+---------+-----------------------+----------------------------------+-----------+-------+
(3 rows)
`},
		{"csv", `status,path,ratio,ts,geo,tags,ok
200,/index.html,0.5,2026-11-30 12:00:00,"{""country"":""FR"",""city"":""Paris""}","[""a"",""b""]",true
404,"say ""hi"", <b>
bye",1234.25,2026-11-30 12:00:00.5,,[],false
,,,,"{""country"":null,""city"":""Zürich""}",,
`},
		{"json", `[
{"status":200,"path":"/index.html","ratio":0.5,"ts":"2026-11-30T12:00:00Z","geo":{"country":"FR","city":"Paris"},"tags":["a","b"],"ok":true},
{"status":404,"path":"say \"hi\", <b>\nbye","ratio":1234.25,"ts":"2026-11-30T12:00:00.5Z","geo":null,"tags":[],"ok":false},
{"status":null,"path":"","ratio":null,"ts":null,"geo":{"country":null,"city":"Zürich"},"tags":null,"ok":null}
]
`},
		{"jsonl", `{"status":200,"path":"/index.html","ratio":0.5,"ts":"2026-11-30T12:00:00Z","geo":{"country":"FR","city":"Paris"},"tags":["a","b"],"ok":true}
{"status":404,"path":"say \"hi\", <b>\nbye","ratio":1234.25,"ts":"2026-11-30T12:00:00.5Z","geo":null,"tags":[],"ok":false}
{"status":null,"path":"","ratio":null,"ts":null,"geo":{"country":null,"city":"Zürich"},"tags":null,"ok":null}
`},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			f, err := NewFormatter(tt.format)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := f.Format(&buf, schema, batches); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestFormattersEmpty(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: types.Int}}, nil)
	tests := map[string]string{
		"table": "+---+\n| a |\n+---+\n(0 rows)\n",
		"csv":   "a\n",
		"json":  "[]\n",
		"jsonl": "",
	}
	for name, want := range tests {
		f, _ := NewFormatter(name)
		var buf bytes.Buffer
		if err := f.Format(&buf, schema, nil); err != nil {
			t.Fatal(err)
		}
		if buf.String() != want {
			t.Errorf("%s: got %q, want %q", name, buf.String(), want)
		}
	}
}

func TestNewFormatterUnknown(t *testing.T) {
	if _, err := NewFormatter("xml"); err == nil || !strings.Contains(err.Error(), "csv, json, jsonl, table") {
		t.Fatalf("got %v", err)
	}
}

func TestWriteResultMessage(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteResult(&buf, JSON{}, &engine.Result{Message: "table created"}); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "table created\n" {
		t.Fatalf("got %q", buf.String())
	}
}
