package sql

// ShowStreams is SHOW STREAMS.
type ShowStreams struct{ StmtBase }

// DescribeStream is DESCRIBE STREAM name.
type DescribeStream struct {
	StmtBase
	Name string
}

// StopStream is STOP STREAM name.
type StopStream struct {
	StmtBase
	Name string
}

// StartStream is START STREAM name: resume a stopped stream from its
// checkpoint.
type StartStream struct {
	StmtBase
	Name string
}
