package file

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/types"
)

func TestInfer(t *testing.T) {
	dir := logsTree(t)
	csvDir := writeTree(t, map[string]string{
		"c/day=2026-11-01/a.csv": "id,name\n1,x\n2,y\n",
		"c/day=2026-11-02/b.csv": "id,name\n3,z\n",
	})
	cases := []struct {
		name      string
		spec      connector.TableSpec
		wantCols  string
		wantParts []string
	}{
		{"json partitioned", connector.TableSpec{Name: "t", Using: "json", Location: dir + "/logs"},
			"path STRING, size BIGINT, status BIGINT, year INT, month INT", []string{"year", "month"}},
		{"json no partition inference", connector.TableSpec{Name: "t", Using: "json", Location: dir + "/logs", Options: map[string]string{"partition_inference": "off"}},
			"path STRING, size BIGINT, status BIGINT, year BIGINT", nil},
		{"csv date partitions", connector.TableSpec{Name: "t", Using: "csv", Location: csvDir + "/c", Options: map[string]string{"header": "true"}},
			"id INT, name STRING, day DATE", []string{"day"}},
		{"location inside a partition", connector.TableSpec{Name: "t", Using: "json", Location: dir + "/logs/year=2026"},
			"path STRING, size BIGINT, status BIGINT, year BIGINT, month INT", []string{"month"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sch, parts, err := Infer(context.Background(), c.spec)
			if err != nil {
				t.Fatal(err)
			}
			if got := describeSchema(sch); !sameColumns(got, c.wantCols) {
				t.Errorf("schema %s, want %s", got, c.wantCols)
			}
			if !reflect.DeepEqual(parts, c.wantParts) {
				t.Errorf("partitions %v, want %v", parts, c.wantParts)
			}
		})
	}
	if _, _, err := Infer(context.Background(), connector.TableSpec{Name: "t", Using: "json", Location: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "no files") {
		t.Errorf("empty location: %v", err)
	}
}

// sameColumns compares "a T, b U" lists ignoring the order of data
// columns the format may choose, but not of partition columns (last).
func sameColumns(got, want string) bool {
	g, w := strings.Split(got, ", "), strings.Split(want, ", ")
	return reflect.DeepEqual(sorted(g), sorted(w)) && g[len(g)-1] == w[len(w)-1]
}

func describeSchema(s *arrow.Schema) string {
	var parts []string
	for _, f := range s.Fields() {
		parts = append(parts, f.Name+" "+types.SQLName(f.Type))
	}
	return strings.Join(parts, ", ")
}

func TestSourceWithoutSchemaInfers(t *testing.T) {
	dir := logsTree(t)
	src, err := NewSource(context.Background(), connector.TableSpec{Name: "t", Using: "json", Location: dir + "/logs"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := src.PushProjection([]string{"status", "year"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"200|2025", "404|2025", "500|2026", "200|2026", "201|NULL"}
	if got := readAll(t, p); !reflect.DeepEqual(sorted(got), sorted(want)) {
		t.Errorf("got %v", got)
	}
}
