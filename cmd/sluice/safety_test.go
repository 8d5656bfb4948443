package main

// Regression tests for the data-safety bugs of the reliability issue,
// each shaped like the bug as reported: the real binary, run in a
// sandbox folder with the default data dir (./sluice-data), checking exit
// status and what is on disk afterwards.

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var sluiceBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sluice-bin-")
	if err != nil {
		panic(err)
	}
	sluiceBin = filepath.Join(dir, "sluice")
	if out, err := exec.Command("go", "build", "-o", sluiceBin, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic("building sluice: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sandbox is a folder with a work/ folder to run in (its data dir is
// work/sluice-data) and a file next to work/ that nothing may touch.
type sandbox struct {
	t    *testing.T
	root string
	work string
	env  []string
}

func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	root := t.TempDir()
	work := filepath.Join(root, "work")
	for _, p := range []string{filepath.Join(work, "in"), filepath.Join(root, "keep")} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(root, "keep", "precious.txt"), "do not delete\n")
	write(t, filepath.Join(work, "notes.txt"), "mine\n")
	write(t, filepath.Join(work, "in", "a.json"), `{"k": "a", "n": 1}`+"\n"+`{"k": "b", "n": 2}`+"\n")
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root}
	return &sandbox{t: t, root: root, work: work, env: env}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs `sluice sql --format csv -e stmt` in the work folder.
func (s *sandbox) run(stmt string, extraEnv ...string) (stdout, stderr string, ok bool) {
	s.t.Helper()
	cmd := exec.Command(sluiceBin, "sql", "--format", "csv", "-e", stmt)
	cmd.Dir = s.work
	cmd.Env = append(append([]string{}, s.env...), extraEnv...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if err != nil {
		if _, isExit := err.(*exec.ExitError); !isExit {
			s.t.Fatalf("running sluice: %v", err)
		}
	}
	return o.String(), e.String(), err == nil
}

func (s *sandbox) mustRun(stmt string, extraEnv ...string) string {
	s.t.Helper()
	out, errOut, ok := s.run(stmt, extraEnv...)
	if !ok {
		s.t.Fatalf("%s: failed: %s", stmt, errOut)
	}
	return out
}

func (s *sandbox) mustFail(stmt, want string) {
	s.t.Helper()
	_, errOut, ok := s.run(stmt)
	if ok {
		s.t.Fatalf("%s: succeeded, want an error containing %q", stmt, want)
	}
	if !strings.Contains(errOut, want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
		s.t.Fatalf("%s: stderr %q, want one line containing %q", stmt, errOut, want)
	}
}

// outside lists every path in the sandbox that is not in the data dir.
func (s *sandbox) outside() []string {
	s.t.Helper()
	data := filepath.Join(s.work, "sluice-data")
	var out []string
	_ = filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if p == data {
			return fs.SkipDir
		}
		out = append(out, p)
		return nil
	})
	sort.Strings(out)
	return out
}

func (s *sandbox) exists(rel string) bool {
	_, err := os.Stat(filepath.Join(s.work, rel))
	return err == nil
}

func TestNamesCannotEscapeTheDataDir(t *testing.T) {
	s := newSandbox(t)
	s.mustRun("CREATE TABLE src USING json LOCATION 'in/'")
	before := s.outside()
	s.mustFail("CREATE MATERIALIZED VIEW `../..` AS SELECT k, n FROM src", `invalid name "../.."`)
	s.mustFail("DROP MATERIALIZED VIEW `../..`", "not found")
	s.mustFail("CREATE TABLE `../../x` (k STRING) USING index", `invalid name "../../x"`)
	s.mustFail("CREATE TABLE `a/b` (k STRING) USING index", `invalid name "a/b"`)
	s.mustRun("CREATE TABLE sink (k STRING, n BIGINT) USING index")
	s.mustFail("INSERT STREAM INTO sink SELECT k, n FROM src WITH (name = '../../y', trigger = 'once')", `invalid name "../../y"`)
	s.mustFail("INSERT STREAM INTO sink SELECT k, n FROM src WITH (name = 'a\\b', trigger = 'once')", `invalid name`)
	if after := s.outside(); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Fatalf("files outside the data dir changed:\nbefore %v\nafter  %v", before, after)
	}
	if !s.exists("notes.txt") || !s.exists("../keep/precious.txt") {
		t.Fatal("user files were deleted")
	}
}

func TestDropViewDeletesOnlyItsCheckpoint(t *testing.T) {
	s := newSandbox(t)
	write(t, filepath.Join(s.work, "cp", "README.txt"), "the user's own file\n")
	s.mustRun("CREATE TABLE src USING json LOCATION 'in/'")
	s.mustRun("CREATE MATERIALIZED VIEW v AS SELECT k, n FROM src WITH (checkpoint_location = 'cp')")
	if !s.exists("cp/commits/0") {
		t.Fatal("the view wrote no checkpoint in cp/")
	}
	s.mustFail("DROP MATERIALIZED VIEW v", "README.txt")
	if !s.exists("cp/README.txt") || !s.exists("cp/commits/0") {
		t.Fatal("a refused DROP deleted files")
	}
	// The view is still there to drop once the folder is the view's alone.
	if out := s.mustRun("SHOW MATERIALIZED VIEWS"); !strings.Contains(out, "\nv,") {
		t.Fatalf("view gone after a refused DROP: %q", out)
	}
	if err := os.Remove(filepath.Join(s.work, "cp", "README.txt")); err != nil {
		t.Fatal(err)
	}
	s.mustRun("DROP MATERIALIZED VIEW v")
	if s.exists("cp") || s.exists("sluice-data/indexes/v") {
		t.Fatal("DROP left the checkpoint or the index behind")
	}
	if !s.exists("notes.txt") || !s.exists("in/a.json") {
		t.Fatal("user files were deleted")
	}
}

func TestDropIndexTableRemovesItsData(t *testing.T) {
	s := newSandbox(t)
	s.mustRun("CREATE TABLE src USING json LOCATION 'in/'")
	s.mustRun("CREATE TABLE hot (k STRING, n BIGINT) USING index; INSERT INTO hot SELECT k, n FROM src")
	if out := s.mustRun("SELECT count(*) AS c FROM hot"); out != "c\n2\n" {
		t.Fatalf("before DROP: %q", out)
	}
	s.mustRun("DROP TABLE hot")
	if s.exists("sluice-data/indexes/hot") {
		t.Fatal("DROP TABLE left the index on disk")
	}
	s.mustRun("CREATE TABLE hot (k STRING, n BIGINT) USING index")
	if out := s.mustRun("SELECT count(*) AS c FROM hot"); out != "c\n0\n" {
		t.Fatalf("a new table of the same name returned the dropped rows: %q", out)
	}
	// An external table (its data somewhere the user chose) keeps its data.
	s.mustRun("CREATE TABLE ext (k STRING, n BIGINT) USING index OPTIONS (path 'myindex'); INSERT INTO ext SELECT k, n FROM src; DROP TABLE ext")
	if !s.exists("myindex/index_meta.json") {
		t.Fatal("DROP TABLE deleted an external index")
	}
	s.mustRun("DROP TABLE src")
	if !s.exists("in/a.json") {
		t.Fatal("DROP TABLE deleted a file table's data")
	}
}

func TestSinkScratchFilesLiveInTheDataDir(t *testing.T) {
	s := newSandbox(t)
	s.mustRun("CREATE TABLE src USING json LOCATION 'in/'")
	// A system temp dir that cannot be used: the sink must not need it.
	s.mustRun("CREATE TABLE out (k STRING, n BIGINT) USING json LOCATION 'out/'; INSERT INTO out SELECT k, n FROM src",
		"TMPDIR="+filepath.Join(s.root, "no-such-dir"))
	if out := s.mustRun("SELECT count(*) AS c FROM out"); out != "c\n2\n" {
		t.Fatalf("out: %q", out)
	}
	// What a SIGKILL mid-write leaves behind is swept at the next start.
	orphan := filepath.Join(s.work, "sluice-data", "tmp", "sluice-sink-123456")
	write(t, orphan, "half a file")
	s.mustRun("SHOW TABLES")
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Fatalf("orphaned scratch file not swept: %v", err)
	}
}

func TestFailedDDLLeavesTheCatalogAsItWas(t *testing.T) {
	s := newSandbox(t)
	s.mustRun("CREATE TABLE src USING json LOCATION 'in/'")
	// A stray file in the view's index folder makes its first refresh fail.
	stray := filepath.Join(s.work, "sluice-data", "indexes", "v", "stray.txt")
	write(t, stray, "not an index\n")
	_, errOut, ok := s.run("CREATE MATERIALIZED VIEW v AS SELECT k, n FROM src")
	if ok {
		t.Fatal("CREATE MATERIALIZED VIEW over a folder with a stray file succeeded")
	}
	if out := s.mustRun("SHOW MATERIALIZED VIEWS"); strings.Contains(out, "\nv,") {
		t.Fatalf("failed CREATE left the view: %q (error was %q)", out, errOut)
	}
	if out := s.mustRun("SHOW TABLES"); strings.Contains(out, "\nv,") {
		t.Fatalf("failed CREATE left the view's table: %q", out)
	}
	if _, err := os.Stat(stray); err != nil {
		t.Fatalf("the undo deleted a file the view did not write: %v", err)
	}
	// Once the folder is fixed, the retry works.
	if err := os.Remove(stray); err != nil {
		t.Fatal(err)
	}
	s.mustRun("CREATE MATERIALIZED VIEW v AS SELECT k, n FROM src")
	if out := s.mustRun("SELECT count(*) AS c FROM v"); out != "c\n2\n" {
		t.Fatalf("view after retry: %q", out)
	}
	// A CTAS whose query fails leaves no table.
	s.mustFail("CREATE TABLE bad USING json LOCATION 'bad/' AS SELECT CAST(k AS INT) AS x FROM src", "")
	if out := s.mustRun("SHOW TABLES"); strings.Contains(out, "\nbad,") {
		t.Fatalf("failed CTAS left its table: %q", out)
	}
	// A stream whose query does not plan is not recorded.
	s.mustRun("CREATE TABLE sink (k STRING, n BIGINT) USING index")
	s.mustFail("INSERT STREAM INTO sink SELECT k, nope FROM src WITH (name = 'feed', trigger = 'once')", "nope")
	if out := s.mustRun("SHOW STREAMS"); strings.Contains(out, "feed") {
		t.Fatalf("a stream that never started stays in the catalog: %q", out)
	}
}
