package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"sluice/internal/backup"
	"sluice/internal/cli"
	"sluice/internal/served"
	"sluice/internal/server"
)

// backupFlags are the flags backup and restore share.
type backupFlags struct {
	dataDir, endpoint, region string
}

func (f *backupFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dataDir, "data-dir", cli.DefaultDataDir(), "data directory")
	fs.StringVar(&f.endpoint, "s3-endpoint", os.Getenv("SLUICE_S3_ENDPOINT"), "S3 endpoint of an s3:// location (an S3-compatible store)")
	fs.StringVar(&f.region, "s3-region", os.Getenv("SLUICE_S3_REGION"), "S3 region of an s3:// location")
}

// s3 are the storage options of an s3:// location; credentials come
// from the AWS default chain (AWS_ACCESS_KEY_ID, a profile, a role).
func (f *backupFlags) s3() map[string]string {
	m := map[string]string{}
	if f.endpoint != "" {
		m["endpoint"] = f.endpoint
	}
	if f.region != "" {
		m["region"] = f.region
	}
	return m
}

// parseOne parses fs's flags before and after its one argument
// (`sluice restore SRC --data-dir D` as well as `--data-dir D SRC`).
func parseOne(fs *flag.FlagSet, args []string, what string) (string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return "", fmt.Errorf("%v (see 'sluice help')", err)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != 1 {
		return "", fmt.Errorf("sluice %s takes one %s (see 'sluice help')", fs.Name(), what)
	}
	return pos[0], nil
}

// absLocation makes a local location absolute: a server given it runs
// in another working dir.
func absLocation(loc string) (string, error) {
	if strings.Contains(loc, "://") {
		return loc, nil
	}
	return filepath.Abs(strings.TrimPrefix(loc, "file:"))
}

// backupCmd is `sluice backup [--data-dir D] DEST`: through the server
// holding D when one does (only it can copy the local indexes its
// streams hold open), in this process otherwise, with D's data dir lock
// held so that no server starts meanwhile.
func backupCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var bf backupFlags
	bf.register(fs)
	var rc remoteFlags
	rc.register(fs)
	dest, err := parseOne(fs, args, "destination (a folder or s3://bucket/prefix)")
	if err != nil {
		return err
	}
	if dest, err = absLocation(dest); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if r, ok := served.Lookup(bf.dataDir); ok {
		remote, err := rc.remote()
		if err != nil {
			return err
		}
		remote.URL = r.URL
		fmt.Fprintf(os.Stderr, "sluice: %s is served by %s (pid %d); the server takes the backup\n", bf.dataDir, r.URL, r.PID)
		var res server.BackupResponse
		if err := remote.PostJSON(ctx, server.APIBackupPath, server.BackupRequest{Dest: dest, S3: bf.s3()}, &res); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		printBackup(stdout, dest, res.Files, res.Bytes, res.Checkpoints)
		return nil
	}
	if _, err := os.Stat(filepath.Join(bf.dataDir, "catalog.json")); err != nil {
		// Before the lock, which would make the folder.
		return fmt.Errorf("backup: %s has no catalog.json: not a data dir", bf.dataDir)
	}
	release, err := server.LockDataDir(bf.dataDir, fmt.Sprintf("sluice backup pid %d", os.Getpid()))
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer release()
	m, err := backup.TakeTo(ctx, dest, bf.s3(), backup.Options{DataDir: bf.dataDir, Binary: cli.VersionString()})
	if err != nil {
		return err
	}
	var bytes int64
	for _, f := range m.Files {
		bytes += f.Size
	}
	printBackup(stdout, dest, len(m.Files), bytes, m.Checkpoints)
	return nil
}

func printBackup(w io.Writer, dest string, files int, bytes int64, cps []backup.Checkpoint) {
	fmt.Fprintf(w, "backed up %d files (%d bytes) to %s\n", files, bytes, dest)
	for _, c := range cps {
		fmt.Fprintf(w, "  %s at commit %d\n", c.Path, c.LastCommit)
	}
}

// restoreCmd is `sluice restore SRC --data-dir D [--force]`, with D's
// data dir lock held: no server may run on D meanwhile.
func restoreCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var bf backupFlags
	bf.register(fs)
	force := fs.Bool("force", false, "restore into a data dir that is not empty, replacing its catalog, secrets, checkpoints and indexes")
	src, err := parseOne(fs, args, "backup (a folder or s3://bucket/prefix)")
	if err != nil {
		return err
	}
	if src, err = absLocation(src); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	release, err := server.LockDataDir(bf.dataDir, fmt.Sprintf("sluice restore pid %d", os.Getpid()))
	if errors.Is(err, server.ErrDataDirInUse) {
		return fmt.Errorf("restore: %w: stop it first", err)
	}
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer release()
	m, err := backup.RestoreFrom(ctx, src, bf.s3(), backup.RestoreOptions{DataDir: bf.dataDir, Force: *force})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored %d files from %s (taken %s by sluice %s) into %s\n", len(m.Files), src, m.Created.Format("2006-01-02 15:04:05Z"), m.Binary, bf.dataDir)
	for _, c := range m.Checkpoints {
		fmt.Fprintf(stdout, "  %s resumes after commit %d\n", c.Path, c.LastCommit)
	}
	return nil
}
