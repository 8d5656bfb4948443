package engine

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"sluice/internal/storage"
)

func TestS3Probe(t *testing.T) {
	srv := needS3(t)
	bucket := newBucket(t)
	dir := filepath.Join(srv.Dir, bucket, "many")
	os.MkdirAll(dir, 0o755)
	const n = 2000
	for i := 0; i < n; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("k%05d.json", i)), []byte(fmt.Sprintf("{\"k\": %d}\n", i)), 0o644)
	}
	st, _ := storage.NewS3Store(t.Context(), bucket, storage.Options{Endpoint: srv.Endpoint, AccessKeyID: srv.AccessKey, SecretAccessKey: srv.SecretKey, Region: srv.Region})
	var keys []string
	t0 := time.Now()
	st.List(t.Context(), "many/", "", func(o storage.ObjectInfo) error { keys = append(keys, o.Key); return nil })
	t.Logf("list %d: %v", len(keys), time.Since(t0))
	for _, par := range []int{1, 4, 16, 64} {
		t0 = time.Now()
		ch := make(chan string)
		var wg sync.WaitGroup
		for w := 0; w < par; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range ch {
					rc, err := st.Open(t.Context(), k)
					if err != nil {
						t.Error(err)
						continue
					}
					io.ReadAll(rc)
					rc.Close()
				}
			}()
		}
		for _, k := range keys {
			ch <- k
		}
		close(ch)
		wg.Wait()
		d := time.Since(t0)
		t.Logf("storage GET par=%d: %v (%.0f obj/s)", par, d, float64(n)/d.Seconds())
	}
	eng := newTestEngine(t)
	for _, ra := range []int{0, 16, 64} {
		name := fmt.Sprintf("m%d", ra)
		mustExec(t, eng, fmt.Sprintf("CREATE TABLE %s (k INT) USING json LOCATION 's3://%s/many/' %s", name, bucket, s3Opts(srv.Endpoint, fmt.Sprintf("read_ahead '%d'", ra))))
		t0 = time.Now()
		rows := sortedRows(t, eng, "SELECT k FROM "+name)
		d := time.Since(t0)
		t.Logf("engine read_ahead=%d: %d rows %v (%.0f obj/s)", ra, len(rows), d, float64(n)/d.Seconds())
	}
}
