package sql

import "testing"

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://user:hunter2@host:9200/x/":             "http://user:***@host:9200/x/",
		"s3://bucket/x/":                               "s3://bucket/x/",
		"https://user@host/":                           "https://user@host/",
		"/tmp/a b/":                                    "/tmp/a b/",
		"nats://h1:1,nats://u:hunter2@h2:2/S/C?x=1,2":  "nats://h1:1,nats://u:***@h2:2/S/C?x=1,2",
		"nats://u:hunter2@h1:1,h2:2/S/C":               "nats://u:***@h1:1,h2:2/S/C",
		"nats://h1:1,u:hunter2@h2:2/S/C":               "nats://h1:1,u:***@h2:2/S/C",
		"nats://hunter2tok@h1:4222/S/C":                "nats://***@h1:4222/S/C",
		"tls://hunter2tok@h1:4222,hunter2tok@h2:1/S/C": "tls://***@h1:4222,***@h2:1/S/C",
		"nats://${env:TOK}@h1:4222/S/C":                "nats://${env:TOK}@h1:4222/S/C",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
	st, err := ParseOne("CREATE TABLE t (x INT) USING json LOCATION 'http://u:hunter2@h/x/' OPTIONS (endpoint 'http://u:pw2@h:1')")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := st.String(), "CREATE TABLE t (x INT) USING json LOCATION 'http://u:***@h/x/' OPTIONS (endpoint = 'http://u:***@h:1')"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
