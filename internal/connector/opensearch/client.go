package opensearch

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"
	osgo "github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/signer/awsv2"
)

// client is a thin wrapper over opensearch-go: raw requests, raw bodies.
// Retries are ours (bulk.go), so the library's are off.
type client struct {
	c *osgo.Client
}

func newClient(ctx context.Context, o Options) (*client, error) {
	cfg := osgo.Config{
		Addresses:            o.Endpoints,
		Username:             o.User,
		Password:             o.Password,
		InsecureSkipVerify:   o.Insecure,
		DisableRetry:         true,
		RequestTimeout:       60 * time.Second,
		DiscoverNodesOnStart: new(bool),
	}
	if o.CAFile != "" {
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, fmt.Errorf("reading ca_file: %w", err)
		}
		cfg.CACert = pem
	}
	if o.Region != "" {
		awsCfg, err := config.LoadDefaultConfig(ctx, config.WithRegion(o.Region))
		if err != nil {
			return nil, fmt.Errorf("loading AWS credentials: %w", err)
		}
		s, err := awsv2.NewSignerWithService(awsCfg, o.Service)
		if err != nil {
			return nil, fmt.Errorf("making the SigV4 signer: %w", err)
		}
		cfg.Signer = s
		cfg.Username, cfg.Password = "", ""
	}
	c, err := osgo.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("opensearch client: %w", err)
	}
	return &client{c: c}, nil
}

// do sends one request and returns the status and the whole body. A
// transport failure (refused, reset, timeout) is an error.
func (c *client) do(ctx context.Context, method, path string, body []byte) (int, []byte, error) {
	var out bytes.Buffer
	st, err := c.doInto(ctx, method, path, body, &out, false)
	if err != nil {
		return st, nil, err
	}
	return st, out.Bytes(), nil
}

// doInto is do with the answer read into out (reset first), which the
// caller reuses request after request. plain asks for it uncompressed:
// a filtered _bulk answer is a few bytes a document, which gzip costs
// the node and this process more CPU to compress and inflate than it
// saves on the wire.
func (c *client) doInto(ctx context.Context, method, path string, body []byte, out *bytes.Buffer, plain bool) (int, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, path, rd)
	if err != nil {
		return 0, err
	}
	if body != nil {
		ct := "application/json"
		if strings.HasPrefix(path, "/_bulk") || strings.Contains(path, "/_bulk") {
			ct = "application/x-ndjson"
		}
		req.Header = http.Header{"Content-Type": []string{ct}}
		req.ContentLength = int64(len(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	if plain {
		if req.Header == nil {
			req.Header = http.Header{}
		}
		req.Header["Accept-Encoding"] = []string{"identity"}
	}
	resp, err := c.c.Stream(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var from io.Reader = resp.Body
	if plain && resp.Header.Get("Content-Encoding") == "gzip" {
		// Compressed all the same (a proxy): what Go would have inflated.
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return resp.StatusCode, err
		}
		from = zr
	}
	out.Reset()
	if _, err := out.ReadFrom(from); err != nil {
		return resp.StatusCode, err
	}
	return resp.StatusCode, nil
}

// ok wraps a non-2xx answer as an error with the server's reason.
func statusErr(what string, status int, body []byte) error {
	msg := string(body)
	if len(msg) > 500 {
		msg = msg[:500] + "..."
	}
	return fmt.Errorf("%s: HTTP %d: %s", what, status, msg)
}

func (c *client) Close() error { return c.c.Close() }
