package cli

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"sluice/internal/engine"
	"sluice/internal/sql"
)

// Remote runs statements on a `sluice serve` instead of in-process: each
// goes to the server's /api/v1/statement, and its rows come back as Arrow
// so the formatters print them exactly as a local run would. Cancelling
// ctx (Ctrl-C) abandons the request, and the server cancels the
// statement with it.
type Remote struct {
	// URL is the server's base URL, e.g. http://127.0.0.1:9210.
	URL    string
	Client *http.Client
	// User and Password authenticate with HTTP basic auth; Token, when
	// set, is sent as a bearer token instead.
	User, Password, Token string

	// session is the server's id of this client's session, from its
	// first answer on: sent with every statement, so USE and SET carry
	// over from one to the next as they do in-process. One Remote is one
	// client, its statements one at a time.
	session string
}

var _ executor = (*Remote)(nil)

// remotePath is server.APIStatementPath (cli does not import server).
const remotePath = "/api/v1/statement"

// remoteResponse is server.StatementResponse.
type remoteResponse struct {
	Statement, Message, Arrow, Cursor string
	SessionID                         string `json:"sessionId"`
}

// ExecuteStatement implements executor. A result the server pages (over
// its --max-rows) is fetched page by page and returned whole.
func (r *Remote) ExecuteStatement(ctx context.Context, st sql.Statement) (*engine.Result, error) {
	req := map[string]string{"query": st.Text()}
	if text, ok := pplQuery(st); ok {
		// The server reads it as PPL, so its errors count columns as here.
		req = map[string]string{"query": text, "lang": "ppl"}
	}
	if r.session != "" {
		req["sessionId"] = r.session
	}
	out, err := r.post(ctx, req)
	if err != nil {
		return nil, err
	}
	if out.SessionID != "" {
		r.session = out.SessionID
	}
	res := &engine.Result{Statement: out.Statement, Message: out.Message}
	for {
		if out.Arrow != "" {
			schema, batches, err := decodeArrow(out.Arrow)
			if err != nil {
				return nil, fmt.Errorf("server %s: %w", r.URL, err)
			}
			if res.Schema == nil {
				res.Schema = schema
			}
			res.Batches = append(res.Batches, batches...)
		}
		if out.Cursor == "" {
			return res, nil
		}
		if out, err = r.post(ctx, map[string]string{"cursor": out.Cursor}); err != nil {
			return nil, err
		}
	}
}

func (r *Remote) post(ctx context.Context, reqBody map[string]string) (*remoteResponse, error) {
	var out remoteResponse
	if err := r.PostJSON(ctx, remotePath, reqBody, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// PostJSON posts in as JSON to the server's path and decodes its 200
// answer into out; any other answer is the error the server gave.
func (r *Remote) PostJSON(ctx context.Context, path string, in, out any) error {
	body, _ := json.Marshal(in)
	url := strings.TrimRight(r.URL, "/") + path
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("server %s: %w", r.URL, err)
	}
	req.Header.Set("Content-Type", "application/json")
	switch {
	case r.Token != "":
		req.Header.Set("Authorization", "Bearer "+r.Token)
	case r.User != "":
		req.SetBasicAuth(r.User, r.Password)
	}
	client := r.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("server %s: %w", r.URL, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("server %s: reading response: %w", r.URL, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error struct{ Reason, Details string }
		}
		if resp.StatusCode == http.StatusUnauthorized {
			return fmt.Errorf("server %s: authentication failed: check --user and SLUICE_PASSWORD, or --token", r.URL)
		}
		if json.Unmarshal(data, &e) == nil && e.Error.Details != "" {
			return errors.New(e.Error.Details)
		}
		return fmt.Errorf("server %s: %s: %s", r.URL, resp.Status, bytes.TrimSpace(data))
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("server %s: decoding response: %w", r.URL, err)
	}
	return nil
}

// TLSClient is an HTTP client that trusts the PEM certificates in
// caFile besides the system's, for a server with a self-signed or
// private-CA certificate.
func TLSClient(caFile string) (*http.Client, error) {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("reading --ca-cert: %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--ca-cert %s holds no PEM certificate", caFile)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: tr}, nil
}

func decodeArrow(b64 string) (*arrow.Schema, []arrow.RecordBatch, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, nil, fmt.Errorf("decoding rows: %w", err)
	}
	rd, err := ipc.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, fmt.Errorf("decoding rows: %w", err)
	}
	defer rd.Release()
	var batches []arrow.RecordBatch
	for rd.Next() {
		b := rd.RecordBatch()
		b.Retain()
		batches = append(batches, b)
	}
	if err := rd.Err(); err != nil {
		return nil, nil, fmt.Errorf("decoding rows: %w", err)
	}
	return rd.Schema(), batches, nil
}

// pplQuery is the text of a PPL query typed as PPL (sluice ppl, \ppl),
// not written inside SQL as PPL '...'.
func pplQuery(st sql.Statement) (string, bool) {
	s, ok := st.(*sql.SelectStmt)
	if !ok {
		return "", false
	}
	p, ok := s.Query.Body.(*sql.PPL)
	if !ok || p.Raw != "" {
		return "", false
	}
	return p.Text, true
}
