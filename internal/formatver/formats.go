package formatver

// The readers name the commit that introduced each version: the files
// written today read with it or any later binary.
const (
	anyBinary  = "0.x (any)"
	secrets    = "0.x (commit b1f0978 or later)"
	lateWM     = "0.x (commit 575b3e7 or later)"
	deltas     = "0.x (commit 6a8f59e or later)"
	seenFiles  = "0.x (commit 44c89e3 or later)"
	writeID    = "0.x (commit 9e87c55 or later)"
	keyedMeta  = "0.x (commit 2eeeb16 or later)"
	keyedState = "0.x (commit 35645ce or later)"
	asyncQuery = "0.x (commit 6d04da9 or later)"
	backupMan  = "0.x (commit 8d05e19 or later)"
	reconcile  = "0.x (commit 2c9b215 or later)"
	consoleHis = "0.x (commit 4d3ca69 or later)"
	sparkQuote = "0.x (commit e7bdb1f or later)"
)

// Every persisted format. A change to one appends its new version's
// oldest reader here and adds a data dir to testdata/compat/datadirs.
var (
	// Catalog is catalog.json; version 2 names values in the secrets
	// store, which a binary before it would take for the values; version
	// 3 writes its SQL text's string literals in Spark's escaping (\' for
	// a quote, where older ones wrote ''), which a binary before it
	// would misread.
	Catalog = &Format{Name: "catalog", Where: "<data dir>/catalog.json", Readers: []string{anyBinary, secrets, sparkQuote}}
	// Secrets is the secrets store.
	Secrets = &Format{Name: "secrets store", Where: "<data dir>/secrets.json", Readers: []string{secrets}}
	// Offsets is what an epoch reads.
	Offsets = &Format{Name: "checkpoint offsets", Where: "<checkpoint>/offsets/N", Readers: []string{lateWM}}
	// Commits is a finished epoch, with the list of its state files.
	Commits = &Format{Name: "checkpoint commit", Where: "<checkpoint>/commits/N", Readers: []string{deltas}}
	// State is an operator's state snapshot or delta; binary, its
	// version is kept in the commit that lists it, so a new version of
	// it is a new version of Commits too (whose reader a refusal names),
	// and its first write after an upgrade a full snapshot, never a
	// delta on a snapshot of the old version.
	State = &Format{Name: "operator state", Where: "<checkpoint>/state/N/ID[.delta]", Readers: []string{deltas}}
	// Metadata is a stream's id.
	Metadata = &Format{Name: "checkpoint metadata", Where: "<checkpoint>/metadata", Readers: []string{writeID}}
	// SeenFiles is a file source's log and snapshots of the files read.
	SeenFiles = &Format{Name: "seen-file log", Where: "<checkpoint>/sources/0/{log/N,snapshot/N.json.zst}", Readers: []string{seenFiles}}
	// ReconcileMark is a notification stream's reconcile high-water
	// mark (connector/file/reconcile.go).
	ReconcileMark = &Format{Name: "reconcile mark", Where: "<checkpoint>/sources/0/notify/reconcile.json", Readers: []string{reconcile}}
	// KeyedMeta is a keyed stream's partition count and state fingerprint.
	KeyedMeta = &Format{Name: "keyed partition meta", Where: "<checkpoint>/keyed/meta.json", Readers: []string{keyedMeta}}
	// KeyedState is a keyed partition's state (a JSON header, then the
	// aggregation's snapshot).
	KeyedState = &Format{Name: "keyed partition state", Where: "<checkpoint>/keyed/pP/state/N/partition", Readers: []string{keyedState}}
	// AsyncQuery is an async query's record (its result, an Arrow IPC
	// stream, is read only through it).
	AsyncQuery = &Format{Name: "async query", Where: "<data dir>/queries/<id>.json", Readers: []string{asyncQuery}}
	// Backup is a backup's manifest (internal/backup), which also lists
	// the versions of every other format in the backup.
	Backup = &Format{Name: "backup manifest", Where: "<backup>/manifest.json", Readers: []string{backupMan}}
	// ConsoleHistory is the console's charts' samples and last epochs,
	// a bounded ring the server saves (internal/server/history_file.go).
	ConsoleHistory = &Format{Name: "console history", Where: "<data dir>/console-history.json", Readers: []string{consoleHis}}
)

// Not listed: a checkpoint's status, lock and stop (rewritten by each
// run, read only to describe or guard it), .serve.json (a running
// server's address, gone when it stops), the users file (the
// operator's, in the documented form), and local indexes, whose
// layout Bleve versions itself (index_meta.json); the compat data dirs
// hold indexes so that a Bleve upgrade that breaks them shows.

// All lists every format, for the docs and tests.
var All = []*Format{Catalog, Secrets, Offsets, Commits, State, Metadata, SeenFiles, ReconcileMark, KeyedMeta, KeyedState, AsyncQuery, Backup, ConsoleHistory}
