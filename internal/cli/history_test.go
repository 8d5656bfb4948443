package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shell history kept statements as typed, secrets included.
func TestHistoryKeepsNoSecrets(t *testing.T) {
	in := "CREATE TABLE s (a INT) USING json LOCATION 's3://b/p/'\n  OPTIONS (access_key 'AKIA1', secret_key 'SHHH');\n" +
		"CREATE TABLE o (a INT) USING opensearch OPTIONS (endpoint 'http://admin:PW1@127.0.0.1:9200', index 'x');\n" +
		"SELECT 'plain';\n" +
		"not sql at all http://u:PW2@h/;\n"
	dir := t.TempDir()
	var out, errs bytes.Buffer
	o := Options{DataDir: dir, Stdin: io.NopCloser(strings.NewReader(in)), Stdout: &out, Stderr: &errs}
	if err := shell(context.Background(), o, &scripted{}, nil, Table{}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".sluice_history"))
	if err != nil {
		t.Fatal(err)
	}
	h := string(data)
	for _, secret := range []string{"SHHH", "PW1", "PW2"} {
		if strings.Contains(h, secret) {
			t.Errorf("history holds %s:\n%s", secret, h)
		}
	}
	for _, kept := range []string{"secret_key = '***'", "http://admin:***@127.0.0.1:9200", "SELECT 'plain';", "http://u:***@h/"} {
		if !strings.Contains(h, kept) {
			t.Errorf("history lacks %q:\n%s", kept, h)
		}
	}
}
