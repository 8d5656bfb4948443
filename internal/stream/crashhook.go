package stream

// CrashHook is nil in production. Crash-recovery tests set it in a child
// process to stop (SIGKILL itself) at a named point of an epoch, so the
// moments that matter for exactly-once are hit deterministically rather
// than by luck of timing. Points, in epoch order:
//
//	planned        offsets/N written, nothing read yet
//	decoding       the first batch of the epoch reached the sink
//	sink-write     the sink took that batch (written, not flushed)
//	after-flush    the sink flushed, state and commit not yet written
//	after-commit   commits/N written, the source's seen-file log not yet
//	done           the source recorded the epoch too
//
// and, outside epochs, the points of DDL that writes (DDLPoint, epoch 0):
//
//	ddl-registered a CTAS's table is in the catalog, nothing written yet
//	ddl-written    its rows are in, the statement has not finished
var CrashHook func(point string, epoch int64)

// DDLPoint is a crash point of a statement that creates and fills an
// object (CTAS): see CrashHook.
func DDLPoint(point string) { crashPoint(point, 0) }

func crashPoint(point string, epoch int64) {
	if CrashHook != nil {
		CrashHook(point, epoch)
	}
}
