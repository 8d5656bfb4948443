package stream

// BadRowCounter is a streaming source that counts the malformed rows it
// dropped or dead-lettered; TakeBadRows returns the count since the last
// call and starts over, so each epoch reports its own (Progress.BadRows).
type BadRowCounter interface {
	TakeBadRows() int64
}
