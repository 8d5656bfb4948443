package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/types"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noSecrets fails when catalog.json holds any of the values.
func noSecrets(t *testing.T, dir string, values ...string) {
	t.Helper()
	data := readFile(t, filepath.Join(dir, fileName))
	for _, v := range values {
		if strings.Contains(data, v) {
			t.Errorf("catalog.json holds the secret %q:\n%s", v, data)
		}
	}
}

func secretTable(name string) *Table {
	return &Table{Spec: connector.TableSpec{Name: name, Using: "opensearch",
		Location: "https://loc:LocPw9@search.example:9200/logs",
		Options: map[string]string{
			"index": "logs", "user": "admin", "password": "hunter2",
			"endpoint":              "http://admin:EndPw7@127.0.0.1:9200",
			"s3.secret_access_key":  "${env:AWS_SECRET_ACCESS_KEY}",
			"dead_letter_location":  "s3://bucket/dlq/",
			"queue":                 "https://${env:QUEUE_USER}:${env:QUEUE_PW}@mq.example/q",
			"bulk_concurrent_calls": "2",
		},
		Schema: arrow.NewSchema([]arrow.Field{{Name: "k", Type: types.String, Nullable: true}}, nil)},
		Properties: map[string]string{"owner": "ops", "api_token": "tok-PropTok5"},
		Comment:    "mirror of https://u:CommentPw3@origin.example/"}
}

var tableSecrets = []string{"hunter2", "EndPw7", "LocPw9", "PropTok5", "CommentPw3"}

// TestSecretsNotInCatalogFile: a table's password, the password of a URL
// in its options, location, properties or comment, and those of a
// stored object's statement and options, are in secrets.json (mode
// 0600), not catalog.json; a reopened catalog has every value as
// written, ${env:} references included.
func TestSecretsNotInCatalogFile(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := secretTable("os")
	if err := c.CreateTable(want, false); err != nil {
		t.Fatal(err)
	}
	objOpts := json.RawMessage(`{"table":"os","checkpoint":"/cp","options":{"password":"ObjPw1","trigger":"once","endpoint":"http://u:ObjUrlPw2@h:1"},"n":3,"list":["http://v:ListPw4@h"]}`)
	objSQL := "INSERT STREAM INTO os SELECT * FROM json.`http://u:SqlPw6@files.example/x` WITH (password = '***')"
	if err := c.PutObject(&Object{Kind: "stream", Name: "feed", SQL: objSQL, Options: objOpts}, false); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateDatabase(&Database{Name: "web", Location: "http://d:DbPw8@h/db"}, false); err != nil {
		t.Fatal(err)
	}
	all := append(tableSecrets, "ObjPw1", "ObjUrlPw2", "ListPw4", "SqlPw6", "DbPw8")
	noSecrets(t, dir, all...)
	data := readFile(t, filepath.Join(dir, fileName))
	for _, kept := range []string{"${env:AWS_SECRET_ACCESS_KEY}", "${env:QUEUE_PW}", `"index": "logs"`, "s3://bucket/dlq/", `"version": 3`} {
		if !strings.Contains(data, kept) {
			t.Errorf("catalog.json should keep %s:\n%s", kept, data)
		}
	}
	fi, err := os.Stat(filepath.Join(dir, SecretsFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("secrets.json mode %v, want 0600", fi.Mode().Perm())
	}
	store := readFile(t, filepath.Join(dir, SecretsFile))
	for _, v := range all {
		if !strings.Contains(store, v) {
			t.Errorf("secrets.json lacks %q:\n%s", v, store)
		}
	}

	c2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c2.Table("os")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Spec.Options, want.Spec.Options) || got.Spec.Location != want.Spec.Location ||
		!reflect.DeepEqual(got.Properties, want.Properties) || got.Comment != want.Comment {
		t.Errorf("reopened table:\n got %+v\nwant %+v", got, want)
	}
	o, err := c2.Object("stream", "feed")
	if err != nil {
		t.Fatal(err)
	}
	if o.SQL != objSQL {
		t.Errorf("object SQL %q, want %q", o.SQL, objSQL)
	}
	var gotOpts, wantOpts any
	if err := json.Unmarshal(o.Options, &gotOpts); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(objOpts, &wantOpts)
	if !reflect.DeepEqual(gotOpts, wantOpts) {
		t.Errorf("object options %s, want %s", o.Options, objOpts)
	}
	ds, _ := c2.Databases()
	if len(ds) != 2 || ds[1].Location != "http://d:DbPw8@h/db" {
		t.Errorf("databases %+v", ds)
	}

	// Dropping takes the secrets out of the store too.
	if err := c2.DropTable("os", false); err != nil {
		t.Fatal(err)
	}
	if err := c2.DropObject("stream", "feed", false); err != nil {
		t.Fatal(err)
	}
	store = readFile(t, filepath.Join(dir, SecretsFile))
	for _, v := range append(tableSecrets, "ObjPw1", "SqlPw6") {
		if strings.Contains(store, v) {
			t.Errorf("secrets.json keeps %q of a dropped object:\n%s", v, store)
		}
	}
	if !strings.Contains(store, "DbPw8") {
		t.Errorf("secrets.json lost the database's secret:\n%s", store)
	}
}

// TestSecretsMigration: a catalog.json written before the store, with
// its secrets in plain text, has them moved out when opened.
func TestSecretsMigration(t *testing.T) {
	dir := t.TempDir()
	old := `{"version": 1, "tables": [{"name": "os", "using": "opensearch", "location": "https://loc:LocPw9@h/x",
	  "options": {"index": "logs", "password": "hunter2", "endpoint": "http://admin:EndPw7@127.0.0.1:9200",
	    "token": "${env:OS_TOKEN}", "note": "${secret:other}"},
	  "schema": [{"name": "a", "type": {"kind": "int"}, "nullable": true}], "created": "2025-01-01T00:00:00Z"}],
	  "objects": [{"kind": "mview", "name": "mv", "sql": "CREATE MATERIALIZED VIEW mv AS SELECT 1",
	    "options": {"query": "SELECT * FROM json.` + "`http://u:SqlPw6@h/x`" + `", "options": {"secret_key": "ObjPw1"}}, "created": "2025-01-01T00:00:00Z"}]}`
	if err := os.WriteFile(filepath.Join(dir, fileName), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	noSecrets(t, dir, "hunter2", "EndPw7", "LocPw9", "SqlPw6", "ObjPw1")
	if data := readFile(t, filepath.Join(dir, fileName)); !strings.Contains(data, "${env:OS_TOKEN}") {
		t.Errorf("the ${env:} reference should stay:\n%s", data)
	}
	for _, h := range []*Catalog{c, mustOpen(t, dir)} {
		got, err := h.Table("os")
		if err != nil {
			t.Fatal(err)
		}
		o := got.Spec.Options
		if o["password"] != "hunter2" || o["endpoint"] != "http://admin:EndPw7@127.0.0.1:9200" || o["token"] != "${env:OS_TOKEN}" ||
			o["note"] != "${secret:other}" || got.Spec.Location != "https://loc:LocPw9@h/x" {
			t.Errorf("migrated table: %+v", got.Spec)
		}
		mv, err := h.Object("mview", "mv")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(mv.Options), "SqlPw6") || !strings.Contains(string(mv.Options), "ObjPw1") {
			t.Errorf("migrated view options: %s", mv.Options)
		}
	}
}

func mustOpen(t *testing.T, dir string) *Catalog {
	t.Helper()
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSecretReferenceIsNotResolvedForUsers: a value written as
// ${secret:NAME} is kept as written; it does not read another table's
// secret (which a non-secret option would then show).
func TestSecretReferenceIsNotResolvedForUsers(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	if err := c.CreateTable(secretTable("a"), false); err != nil {
		t.Fatal(err)
	}
	b := &Table{Spec: connector.TableSpec{Name: "b", Using: "json", Location: "/x",
		Options: map[string]string{"index": "${secret:table/a/options/password}"}}}
	if err := c.CreateTable(b, false); err != nil {
		t.Fatal(err)
	}
	got, err := mustOpen(t, dir).Table("b")
	if err != nil {
		t.Fatal(err)
	}
	if v := got.Spec.Options["index"]; v != "${secret:table/a/options/password}" {
		t.Fatalf("index = %q, want it as written", v)
	}
}

// TestMissingSecret: a catalog naming a secret the store lacks does not
// open, and says which (not a value).
func TestMissingSecret(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	if err := c.CreateTable(secretTable("a"), false); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, SecretsFile), []byte(`{"version": 1, "secrets": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir)
	if err == nil || !strings.Contains(err.Error(), "is missing from secrets.json") {
		t.Fatalf("err = %v, want the missing secret named", err)
	}
}

// TestNoSecretsNoStore: a catalog without secrets writes no store and
// stays version 1; an in-memory catalog keeps its secrets in memory.
func TestNoSecretsNoStore(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	if err := c.CreateTable(&Table{Spec: connector.TableSpec{Name: "t", Using: "json", Location: "/x",
		Options: map[string]string{"password": "${env:PW}"}}}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, SecretsFile)); !os.IsNotExist(err) {
		t.Errorf("secrets.json written for no secret: %v", err)
	}
	if data := readFile(t, filepath.Join(dir, fileName)); !strings.Contains(data, `"version": 1`) {
		t.Errorf("want version 1:\n%s", data)
	}
	m := mustOpen(t, "")
	if err := m.CreateTable(secretTable("os"), false); err != nil {
		t.Fatal(err)
	}
	if got, _ := m.Table("os"); got.Spec.Options["password"] != "hunter2" {
		t.Errorf("in-memory table: %+v", got.Spec.Options)
	}
}

func TestIsSecret(t *testing.T) {
	for _, c := range []struct {
		key, v string
		want   bool
	}{
		{"password", "hunter2", true},
		{"s3.secret_key", "abc${env:X}", true},
		{"password", "${env:OS_PW}", false},
		{"password", "", false},
		{"endpoint", "http://admin:pw@h:9200", true},
		{"endpoint", "http://tok@h:9200", true},
		{"queue", "nats://${env:U}:${env:P}@h/q", false},
		{"queue", "nats://u:${env:P}x@h/q", true},
		{"endpoint", "http://h:9200", false},
		{"owner", "ops@example.com", false},
		{"index", "${secret:table/a/options/password}", true},
		{"index", "logs", false},
	} {
		if got := isSecret(c.key, c.v); got != c.want {
			t.Errorf("isSecret(%q, %q) = %v, want %v", c.key, c.v, got, c.want)
		}
	}
}

// TestSecretsConcurrentReader: a reader on a data dir where another
// handle creates and drops tables with secrets never finds a secret
// missing (the store is written around catalog.json) nor sees one other
// than its own table's.
func TestSecretsConcurrentReader(t *testing.T) {
	dir := t.TempDir()
	w, r := mustOpen(t, dir), mustOpen(t, dir)
	done := make(chan error, 1)
	go func() {
		for i := 0; i < 30; i++ {
			name := "t" + string(rune('a'+i%3))
			if err := w.CreateTable(secretTable(name), false); err != nil {
				done <- err
				return
			}
			if err := w.DropTable(name, false); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			return
		default:
		}
		ts, err := r.Tables()
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range ts {
			if tb.Spec.Options["password"] != "hunter2" {
				t.Fatalf("table %s read with password %q", tb.Spec.Name, tb.Spec.Options["password"])
			}
		}
	}
}
