// Package crashtest proves a stream's exactly-once promise with real
// processes: its tests re-exec the test binary as a child that runs one
// INSERT STREAM through engine.Execute, SIGKILL it at named points of an
// epoch (stream.CrashHook, via SLUICE_CRASHPOINT) or at random moments,
// restart it until it catches up, and compare the sink with a batch
// INSERT over the same files row for row. Two children started at once
// on one checkpoint show the lock: exactly one proceeds.
//
//	SLUICE_CRASHPOINT=after-flush#2   die the 2nd time the sink has flushed
//	SLUICE_CRASHPOINT=after-commit:7  die once commits/7 is written
//
// The package has no production code.
package crashtest
