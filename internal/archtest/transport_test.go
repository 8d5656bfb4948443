package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

// transports are the packages that speak to a broker: NATS/JetStream,
// Kafka, SQS, and our own queue clients over them.
var transports = []string{
	"github.com/nats-io/nats.go",
	"github.com/nats-io/nats-server",
	"github.com/twmb/franz-go",
	"github.com/aws/aws-sdk-go-v2/service/sqs",
	"sluice/internal/queue",
}

// TestEngineImportsNoTransport: the engine decides what runs where; how
// workers reach each other (dialing NATS, the partials and watermark
// streams, the lease bucket) belongs to stream/partition and the
// connectors, which it asks through their constructors and
// connector abilities (docs/architecture.md).
func TestEngineImportsNoTransport(t *testing.T) {
	// internal/streams runs the engine's keyed streams, and the engine's own
	// packages are the engine: the same rule.
	for _, pkg := range []string{"sluice/internal/engine", "sluice/internal/engine/sparkstmt", "sluice/internal/engine/access", "sluice/internal/streams"} {
		out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		for _, imp := range strings.Fields(string(out)) {
			for _, tr := range transports {
				if imp == tr || strings.HasPrefix(imp, tr+"/") {
					t.Errorf("%s imports %s: transports belong to stream/partition or a connector", pkg, imp)
				}
			}
		}
	}
}
