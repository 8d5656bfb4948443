package queue

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/twmb/franz-go/pkg/kgo"

	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/javabroker"
)

// TestSQSContract runs the contract against ElasticMQ, a real server of
// the SQS API.
func TestSQSContract(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ElasticMQ")
	}
	b, err := javabroker.StartElasticMQ("events")
	if err != nil {
		integration.Unavailable(t, "%v", err)
	}
	defer b.Stop()
	raw := fmt.Sprintf("sqs://x:y@%s/000000000000/events?scheme=http&visibility=2s", b.Endpoint[len("http://"):])
	u, _ := url.Parse(raw)
	open := func() Queue {
		q, err := OpenSQS(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	client := sqs.New(sqs.Options{Region: "us-east-1", BaseEndpoint: aws.String(b.Endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("x", "y", "")})
	contract(t, open, func(m string) {
		_, err := client.SendMessage(context.Background(), &sqs.SendMessageInput{
			QueueUrl: aws.String(b.Endpoint + "/000000000000/events"), MessageBody: aws.String(m)})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// TestKafkaContract runs the contract against a real Kafka broker (KRaft,
// one node), all three messages on one partition so the committed offset
// shows: acking the first commits past it only.
func TestKafkaContract(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Kafka")
	}
	b, err := javabroker.StartKafka()
	if err != nil {
		integration.Unavailable(t, "%v", err)
	}
	defer b.Stop()
	u, _ := url.Parse("kafka://" + b.Addr + "/s3-events/sluice")
	open := func() Queue {
		q, err := OpenKafka(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	produce := kafkaProducer(t, b.Addr)
	contract(t, open, func(m string) { produce("s3-events", 0, m) })
}

// TestKafkaOutage: the outage contract against a real Kafka broker that
// is killed and started again over the same log.
func TestKafkaOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Kafka")
	}
	b, err := javabroker.StartKafka()
	if err != nil {
		integration.Unavailable(t, "%v", err)
	}
	defer b.Stop()
	u, _ := url.Parse("kafka://" + b.Addr + "/outage/sluice")
	produce := kafkaProducer(t, b.Addr)
	outageContract(t, func(ctx context.Context) (Queue, error) { return OpenKafka(ctx, u) }, func(m string) { produce("outage", 0, m) }, b.Down, b.Up)
}

// TestSQSOutage: the outage contract against ElasticMQ, killed and
// started again over its stored messages.
func TestSQSOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ElasticMQ")
	}
	b, err := javabroker.StartElasticMQ("outage")
	if err != nil {
		integration.Unavailable(t, "%v", err)
	}
	defer b.Stop()
	u, _ := url.Parse(fmt.Sprintf("sqs://x:y@%s/000000000000/outage?scheme=http&visibility=2s", b.Endpoint[len("http://"):]))
	client := sqs.New(sqs.Options{Region: "us-east-1", BaseEndpoint: aws.String(b.Endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("x", "y", "")})
	outageContract(t, func(ctx context.Context) (Queue, error) { return OpenSQS(ctx, u) }, func(m string) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := client.SendMessage(ctx, &sqs.SendMessageInput{
			QueueUrl: aws.String(b.Endpoint + "/000000000000/outage"), MessageBody: aws.String(m)}); err != nil {
			t.Fatal(err)
		}
	}, b.Down, b.Up)
}

// kafkaProducer returns a function that writes messages to one partition
// of a topic on the broker at addr (created on first use) and waits for
// each; the client closes with the test.
func kafkaProducer(t *testing.T, addr string) func(topic string, part int32, msgs ...string) {
	t.Helper()
	prod, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.AllowAutoTopicCreation())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(prod.Close)
	return func(topic string, part int32, msgs ...string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		for _, m := range msgs {
			if err := prod.ProduceSync(ctx, &kgo.Record{Topic: topic, Partition: part, Value: []byte(m)}).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
	}
}
