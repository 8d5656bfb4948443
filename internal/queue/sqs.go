package queue

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// SQS is an Amazon SQS queue (or a server speaking its API). Each message
// goes to one receiver at a time and comes back when its visibility
// timeout passes unacknowledged, so several workers share one queue.
type SQS struct {
	client     *sqs.Client
	queueURL   string
	visibility int32 // seconds
	health     sqsHealth
}

var (
	_ Queue      = (*SQS)(nil)
	_ Extender   = (*SQS)(nil)
	_ Backlogger = (*SQS)(nil)
	_ Checker    = (*SQS)(nil)
)

type sqsMsg struct {
	id, receipt string
	body        []byte
}

func (m sqsMsg) ID() string   { return m.id }
func (m sqsMsg) Data() []byte { return m.body }

// sqsTarget is an sqs:// URL taken apart.
type sqsTarget struct {
	endpoint, queueURL, region string
	key, secret                string
	visibility                 time.Duration
}

// parseSQS reads sqs://[key:secret@]host[:port]/<account>/<queue>
// [?region=R&scheme=http&visibility=30s]. The scheme defaults to https;
// the region to the one in an sqs.R.amazonaws.com host, else us-east-1.
func parseSQS(u *url.URL) (sqsTarget, error) {
	parts, err := pathParts(u, 2, "sqs://host[:port]/<account>/<queue>")
	if err != nil {
		return sqsTarget{}, err
	}
	q := u.Query()
	scheme := q.Get("scheme")
	if scheme == "" {
		scheme = "https"
	}
	if scheme != "http" && scheme != "https" {
		return sqsTarget{}, fmt.Errorf("%w: scheme=%q: want http or https", ErrBadURL, scheme)
	}
	vis, err := durationParam(u, "visibility", 30*time.Second)
	if err != nil {
		return sqsTarget{}, err
	}
	t := sqsTarget{endpoint: scheme + "://" + u.Host, region: q.Get("region"), visibility: vis}
	t.queueURL = t.endpoint + "/" + parts[0] + "/" + parts[1]
	if t.region == "" {
		if h := strings.Split(u.Hostname(), "."); len(h) >= 4 && h[0] == "sqs" {
			t.region = h[1]
		} else {
			t.region = "us-east-1"
		}
	}
	if u.User != nil {
		t.key = u.User.Username()
		t.secret, _ = u.User.Password()
	}
	return t, nil
}

// OpenSQS connects to an sqs:// URL. Credentials come from the URL's
// user:password, else the usual AWS chain (environment, profile, role).
func OpenSQS(ctx context.Context, u *url.URL) (*SQS, error) {
	t, err := parseSQS(u)
	if err != nil {
		return nil, err
	}
	opts := []func(*config.LoadOptions) error{config.WithRegion(t.region)}
	if t.key != "" {
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(t.key, t.secret, "")))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("sqs %s: loading AWS config: %w", t.queueURL, err)
	}
	client := sqs.NewFromConfig(cfg, func(o *sqs.Options) { o.BaseEndpoint = aws.String(t.endpoint) })
	q := &SQS{client: client, queueURL: t.queueURL, visibility: int32(max2(t.visibility, time.Second) / time.Second)}
	// An endpoint that is down, a queue that does not exist or refused
	// credentials show now, not as receives failing one epoch later.
	pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	_, err = client.GetQueueAttributes(pctx, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(t.queueURL),
		AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameVisibilityTimeout}})
	if err = q.health.note(ctx, err); err != nil {
		return nil, fmt.Errorf("sqs %s: %w", t.queueURL, err)
	}
	return q, nil
}

// Receive asks for up to max messages, ten at a time (SQS's limit),
// long-polling up to wait (whole seconds, at most 20) for the first.
func (q *SQS) Receive(ctx context.Context, max int, wait time.Duration) ([]Message, error) {
	if max <= 0 {
		max = 100
	}
	secs := int32(0)
	if wait > 0 {
		secs = int32((wait + time.Second - 1) / time.Second)
		secs = min(secs, 20)
	}
	var out []Message
	for len(out) < max {
		out1, err := q.client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
			QueueUrl:            aws.String(q.queueURL),
			MaxNumberOfMessages: int32(min(10, max-len(out))),
			WaitTimeSeconds:     secs,
			VisibilityTimeout:   q.visibility,
		})
		if err := q.health.note(ctx, err); err != nil {
			return out, fmt.Errorf("receiving from sqs %s: %w", q.queueURL, err)
		}
		for _, m := range out1.Messages {
			out = append(out, sqsMsg{id: aws.ToString(m.MessageId), receipt: aws.ToString(m.ReceiptHandle), body: []byte(aws.ToString(m.Body))})
		}
		if len(out1.Messages) == 0 {
			break
		}
		secs = 0 // only the first call waits
	}
	return out, nil
}

// Ack deletes the messages, ten per request.
func (q *SQS) Ack(ctx context.Context, msgs []Message) error {
	for len(msgs) > 0 {
		n := min(10, len(msgs))
		var entries []types.DeleteMessageBatchRequestEntry
		for i, m := range msgs[:n] {
			sm, ok := m.(sqsMsg)
			if !ok {
				return fmt.Errorf("acking %T on sqs", m)
			}
			entries = append(entries, types.DeleteMessageBatchRequestEntry{Id: aws.String(strconv.Itoa(i)), ReceiptHandle: aws.String(sm.receipt)})
		}
		out, err := q.client.DeleteMessageBatch(ctx, &sqs.DeleteMessageBatchInput{QueueUrl: aws.String(q.queueURL), Entries: entries})
		if err := q.health.note(ctx, err); err != nil {
			return fmt.Errorf("acking on sqs %s: %w", q.queueURL, err)
		}
		if len(out.Failed) > 0 {
			return fmt.Errorf("acking on sqs %s: %d of %d failed: %s", q.queueURL, len(out.Failed), n, aws.ToString(out.Failed[0].Message))
		}
		msgs = msgs[n:]
	}
	return nil
}

// Nak makes the messages visible again now.
func (q *SQS) Nak(ctx context.Context, msgs []Message) error { return q.visible(ctx, msgs, 0) }

// Extend restarts the messages' visibility timeout.
func (q *SQS) Extend(ctx context.Context, msgs []Message) error {
	return q.visible(ctx, msgs, q.visibility)
}

func (q *SQS) visible(ctx context.Context, msgs []Message, secs int32) error {
	var errs []error
	for _, m := range msgs {
		sm, ok := m.(sqsMsg)
		if !ok {
			continue
		}
		_, err := q.client.ChangeMessageVisibility(ctx, &sqs.ChangeMessageVisibilityInput{
			QueueUrl: aws.String(q.queueURL), ReceiptHandle: aws.String(sm.receipt), VisibilityTimeout: secs})
		if err := q.health.note(ctx, err); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("changing visibility on sqs %s: %w", q.queueURL, errors.Join(errs...))
	}
	return nil
}

// Deadline is the visibility timeout receives ask for.
func (q *SQS) Deadline() time.Duration { return time.Duration(q.visibility) * time.Second }

// Backlog is SQS's approximate visible and in-flight counts.
func (q *SQS) Backlog(ctx context.Context) (Backlog, error) {
	out, err := q.client.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(q.queueURL),
		AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameApproximateNumberOfMessages, types.QueueAttributeNameApproximateNumberOfMessagesNotVisible}})
	if err := q.health.note(ctx, err); err != nil {
		return Backlog{}, fmt.Errorf("sqs %s: %w", q.queueURL, err)
	}
	var b Backlog
	b.Pending, _ = strconv.ParseInt(out.Attributes[string(types.QueueAttributeNameApproximateNumberOfMessages)], 10, 64)
	b.Unacked, _ = strconv.ParseInt(out.Attributes[string(types.QueueAttributeNameApproximateNumberOfMessagesNotVisible)], 10, 64)
	return b, nil
}

// Close has nothing to release.
func (q *SQS) Close() error { return nil }
