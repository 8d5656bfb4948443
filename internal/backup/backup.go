// Package backup copies a data dir to a backup (a local folder or an
// object store prefix) while streams run, and restores one into a new
// data dir, so that a server started there resumes every stream from
// the epoch it had committed when the backup was taken.
//
// What a backup holds: catalog.json and the secrets store (read as one
// pair under the catalog's lock), every checkpoint under checkpoints/,
// the local indexes under indexes/, managed file tables under tables/,
// the async queries under queries/, and manifest.json, written last,
// listing each file's size and SHA-256, each checkpoint's last commit,
// and the versions of every persisted format (internal/formatver).
// Left out: locks, stop requests, the served record, tmp/ (spills) and
// hidden files.
//
// # Consistency
//
// Each checkpoint is copied as of its last commit C, the way a crash at
// that moment would leave it (take.go, checkpoint): offsets up to C+1
// (an epoch planned but not committed is replayed with the same input,
// as after a crash, never taken as done), commits and state up to C,
// the source's seen-file log up to C (the restart repeats the source's
// Commit(C), which rewrites a missing log/C). The commit log is listed
// before and after the walk, and the copy starts over when a commit or
// a purge came between: what is copied is then exactly one commit's
// checkpoint.
//
// Sinks in the data dir (local indexes, managed tables) are copied
// after every checkpoint: a sink is flushed before its epoch commits,
// so the copy holds every row of every epoch up to the copied commit,
// and perhaps rows of later epochs, which the restored stream writes
// again under the same document ids (or file names) and so overwrites.
// Each local index is copied from one Bleve snapshot (index.CopyTo)
// through the handle the server's running sink holds, never file by
// file under a writer.
package backup
