package file

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"sluice/internal/connector"
	"sluice/internal/types"
)

// epochs runs NextOffset until nothing is new and returns the file names
// each epoch planned.
func epochs(t *testing.T, src *Source) [][]string {
	t.Helper()
	ctx := context.Background()
	var out [][]string
	var from connector.Offset
	for range 20 {
		next, err := src.NextOffset(ctx, from)
		if err != nil {
			t.Fatal(err)
		}
		splits, err := src.Plan(ctx, from, next)
		if err != nil {
			t.Fatal(err)
		}
		if len(splits) == 0 {
			return out
		}
		var names []string
		for _, sp := range splits {
			names = append(names, path.Base(sp.(*Split).Key))
		}
		out = append(out, names)
		from = next
	}
	t.Fatal("NextOffset never caught up")
	return nil
}

func TestNextOffset(t *testing.T) {
	files := map[string]string{}
	for i := range 5 {
		files[fmt.Sprintf("s/f%d.json", i)] = fmt.Sprintf(`{"n": %d}`+"\n", i) + string(make([]byte, 0))
	}
	dir := writeTree(t, files)
	// f4 is the oldest, f0 the newest.
	base := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	for i := range 5 {
		mt := base.Add(time.Duration(5-i) * time.Minute)
		if err := os.Chtimes(filepath.Join(dir, "s", fmt.Sprintf("f%d.json", i)), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		opts map[string]string
		want [][]string
	}{
		{nil, [][]string{{"f0.json", "f1.json", "f2.json", "f3.json", "f4.json"}}},
		{map[string]string{"max_files_per_trigger": "2"}, [][]string{{"f3.json", "f4.json"}, {"f1.json", "f2.json"}, {"f0.json"}}},
		{map[string]string{"max_files_per_trigger": "2", "latest_first": "true"}, [][]string{{"f0.json", "f1.json"}, {"f2.json", "f3.json"}, {"f4.json"}}},
		{map[string]string{"max_bytes_per_trigger": "20"}, [][]string{{"f3.json", "f4.json"}, {"f1.json", "f2.json"}, {"f0.json"}}},
		{map[string]string{"max_bytes_per_trigger": "1"}, [][]string{{"f4.json"}, {"f3.json"}, {"f2.json"}, {"f1.json"}, {"f0.json"}}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.opts), func(t *testing.T) {
			src, err := NewSource(context.Background(), connector.TableSpec{Name: "s", Using: "json", Location: dir + "/s",
				Options: c.opts, Schema: schema(field("n", types.BigInt))})
			if err != nil {
				t.Fatal(err)
			}
			if got := epochs(t, src); !reflect.DeepEqual(got, c.want) {
				t.Errorf("epochs %v, want %v", got, c.want)
			}
		})
	}
}

func TestNextOffsetNewAndChangedFiles(t *testing.T) {
	ctx := context.Background()
	dir := writeTree(t, map[string]string{"s/a.json": `{"n": 1}`})
	for _, reprocess := range []bool{false, true} {
		src, err := NewSource(ctx, connector.TableSpec{Name: "s", Using: "json", Location: dir + "/s",
			Options: map[string]string{"reprocess_changed_files": fmt.Sprint(reprocess)}, Schema: schema(field("n", types.BigInt))})
		if err != nil {
			t.Fatal(err)
		}
		off1, err := src.NextOffset(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		same, _ := src.NextOffset(ctx, off1)
		if string(same) != string(off1) {
			t.Errorf("nothing new changed the offset")
		}
		if err := os.WriteFile(filepath.Join(dir, "s", "a.json"), []byte(`{"n": 1}`+"\n"+`{"n": 2}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "s", "b.json"), []byte(`{"n": 3}`), 0o644); err != nil {
			t.Fatal(err)
		}
		off2, _ := src.NextOffset(ctx, off1)
		splits, err := src.Plan(ctx, off1, off2)
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		if reprocess {
			want = 2
		}
		if len(splits) != want {
			t.Errorf("reprocess=%v: %d splits, want %d", reprocess, len(splits), want)
		}
		os.Remove(filepath.Join(dir, "s", "b.json"))
		os.WriteFile(filepath.Join(dir, "s", "a.json"), []byte(`{"n": 1}`), 0o644)
	}
}
