package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/types"
)

// TestSharedNamespace: a stream or view named like a table, or a view
// like a stream, is refused with the reason (one namespace), which a
// clash of one kind with itself does not need.
func TestSharedNamespace(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: types.Int, Nullable: true}}, nil)
	if err := c.CreateTable(&Table{Spec: connector.TableSpec{Name: "feed", Using: "json", Location: "/a", Schema: schema}}, false); err != nil {
		t.Fatal(err)
	}
	err = c.PutObject(&Object{Kind: "stream", Name: "feed"}, true)
	if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "a stream cannot take the name of a table: tables, views and streams share one namespace") {
		t.Errorf("stream named like a table: %v", err)
	}
	if err := c.PutObject(&Object{Kind: "stream", Name: "s"}, false); err != nil {
		t.Fatal(err)
	}
	err = c.PutObject(&Object{Kind: "view", Name: "s"}, true)
	if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "a view cannot take the name of a stream") {
		t.Errorf("view named like a stream: %v", err)
	}
	err = c.PutObject(&Object{Kind: "stream", Name: "s"}, false)
	if !errors.Is(err, ErrExists) || strings.Contains(err.Error(), "namespace") {
		t.Errorf("stream named like a stream: %v", err)
	}
}
