package file

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"sluice/internal/connector"
	"sluice/internal/queue"
	"sluice/internal/storage"
	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/javabroker"
	"sluice/internal/testutil/s3server"
)

// TestNotificationsPoisonSQS: over SQS (ElasticMQ), poison ahead of a
// real file's event (poisonMessages) is deleted from the queue and
// counted, and the file is read; the queue ends empty.
func TestNotificationsPoisonSQS(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ElasticMQ and an S3 server")
	}
	b, err := javabroker.StartElasticMQ("events")
	if err != nil {
		integration.Unavailable(t, "%v", err)
	}
	defer b.Stop()
	srv := s3server.StartTB(t)
	if err := srv.CreateBucket("lake"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := srv.Client().PutObject(ctx, &awss3.PutObjectInput{Bucket: aws.String("lake"), Key: aws.String("in/real.json"),
		Body: strings.NewReader("{\"id\": 1}\n")}); err != nil {
		t.Fatal(err)
	}
	client := sqs.New(sqs.Options{Region: "us-east-1", BaseEndpoint: aws.String(b.Endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("x", "y", "")})
	for _, m := range append(poisonMessages("lake"), s3EventFor("lake", "in/real.json")) {
		if _, err := client.SendMessage(ctx, &sqs.SendMessageInput{
			QueueUrl: aws.String(b.Endpoint + "/000000000000/events"), MessageBody: aws.String(string(m))}); err != nil {
			t.Fatal(err)
		}
	}

	name := strings.NewReplacer("/", "_").Replace(t.Name())
	storage.DropMemStore(name)
	opts := map[string]string{
		"endpoint": srv.Endpoint, "region": srv.Region, "path_style": "true",
		"access_key": srv.AccessKey, "secret_key": srv.SecretKey, "discovery_backfill": "false",
		"discovery": "notifications", "path_glob_filter": "*.json",
		"queue": fmt.Sprintf("sqs://x:y@%s/000000000000/events?scheme=http&visibility=2s", strings.TrimPrefix(b.Endpoint, "http://")),
	}
	src, err := NewSource(ctx, connector.TableSpec{Name: "land", Using: "json", Location: "s3://lake/in/",
		Options: opts, Schema: schema(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true})})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := NewStreamSource(src)
	if err != nil {
		t.Fatal(err)
	}
	ss.Warnf = func(string, ...any) {}
	if err := ss.Recover(ctx, connector.CheckpointArea{Store: storage.NamedMemStore(name), Prefix: "cp/sources/0/"}, -1); err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	read := map[string]int{}
	var epoch int64
	drain(t, ss, &epoch, read, 1, 30*time.Second)
	if read["in/real.json"] != 1 || len(read) != 1 {
		t.Fatalf("read %v", read)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if off, keys := latestKeys(t, ss); off != nil {
			t.Fatalf("read again: %v", keys)
		}
		st, _ := ss.NotifyStats()
		if st.NotFiles == poisonNotFiles && st.Malformed == poisonMalformed && st.Held == 0 && st.Backlog == (queue.Backlog{}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v, want not_files %d, malformed %d, nothing held or left in the queue", st, poisonNotFiles, poisonMalformed)
		}
	}
}
