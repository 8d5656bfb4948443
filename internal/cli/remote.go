package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
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
}

var _ executor = (*Remote)(nil)

// remotePath is server.APIStatementPath (cli does not import server).
const remotePath = "/api/v1/statement"

// ExecuteStatement implements executor.
func (r *Remote) ExecuteStatement(ctx context.Context, st sql.Statement) (*engine.Result, error) {
	body, _ := json.Marshal(map[string]string{"query": st.Text()})
	url := strings.TrimRight(r.URL, "/") + remotePath
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("server %s: %w", r.URL, err)
	}
	req.Header.Set("Content-Type", "application/json")
	client := r.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("server %s: %w", r.URL, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("server %s: reading response: %w", r.URL, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error struct{ Reason, Details string }
		}
		if json.Unmarshal(data, &e) == nil && e.Error.Details != "" {
			return nil, errors.New(e.Error.Details)
		}
		return nil, fmt.Errorf("server %s: %s: %s", r.URL, resp.Status, bytes.TrimSpace(data))
	}
	var out struct {
		Statement, Message, Arrow string
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("server %s: decoding response: %w", r.URL, err)
	}
	res := &engine.Result{Statement: out.Statement, Message: out.Message}
	if out.Arrow != "" {
		if res.Schema, res.Batches, err = decodeArrow(out.Arrow); err != nil {
			return nil, fmt.Errorf("server %s: %w", r.URL, err)
		}
	}
	return res, nil
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
