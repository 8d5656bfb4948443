package opensearch

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeInstall lays out stubs for everything scripts/opensearch.sh calls
// out to (mvn, java, curl, setpriv) and a fake distribution zip whose
// bin/opensearch only writes its pid file, so install and start run for
// real without a download or a node. mvnOK false makes the fetch fail.
// It returns the environment to run the script with.
func fakeInstall(t *testing.T, mvnOK bool) []string {
	t.Helper()
	for _, tool := range []string{"bash", "unzip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	tmp := t.TempDir()
	const version = "0.0.0-test"
	zipPath := filepath.Join(tmp, "opensearch-"+version+".zip")
	f, err := os.Create(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, body := range map[string]string{
		"bin/opensearch":           "#!/bin/sh\n# -d -p PIDFILE\necho $$ >\"$3\"\n",
		"config/log4j2.properties": "",
		"config/jvm.options":       "-Xms1g\n-Xmx1g\n-XX:+UseG1GC\n",
	} {
		h := &zip.FileHeader{Name: "opensearch-" + version + "/" + name, Method: zip.Deflate}
		h.SetMode(0o755)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	mvn := "#!/bin/sh\nexit 1\n"
	if mvnOK {
		mvn = "#!/bin/sh\nfor a; do case \"$a\" in -DoutputDirectory=*) cp \"$FAKE_ZIP\" \"${a#-DoutputDirectory=}/\";; esac; done\n"
	}
	bin := filepath.Join(tmp, "bin")
	for name, body := range map[string]string{
		"mvn":  mvn,
		"java": "#!/bin/sh\nexit 0\n",
		"curl": "#!/bin/sh\nexit 0\n", // every health check answers
		// Run the node as ourselves: the fake install is not readable by nobody.
		"setpriv": "#!/bin/sh\nwhile [ \"$1\" != -- ]; do shift; done\nshift\nexec \"$@\"\n",
	} {
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bin, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"SLUICE_CACHE_DIR="+filepath.Join(tmp, "cache"),
		"OPENSEARCH_VERSION="+version,
		"OPENSEARCH_JAVA_HOME="+tmp,
		"FAKE_ZIP="+zipPath,
	)
}

func runScript(t *testing.T, env []string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	script, err := findScript()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Env = env
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// leftovers lists the fetch temp dirs install left in the cache.
func leftovers(t *testing.T, env []string) []string {
	var cache string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "SLUICE_CACHE_DIR="); ok {
			cache = v
		}
	}
	m, _ := filepath.Glob(filepath.Join(cache, "opensearch", "fetch.*"))
	return m
}

// TestScriptStartInstallsInOneProcess: on a fresh cache, start installs
// and starts in one process and prints the node's URL. It used to print
// the URL and then fail with "tmp: unbound variable": the RETURN trap
// install set outlived it and fired when start returned.
func TestScriptStartInstallsInOneProcess(t *testing.T) {
	env := fakeInstall(t, true)
	dir := filepath.Join(t.TempDir(), "node")
	out, errs, err := runScript(t, env, "start", dir, "19200")
	if err != nil {
		t.Fatalf("start: %v\nstdout:\n%s\nstderr:\n%s", err, out, errs)
	}
	if strings.TrimSpace(out) != "http://127.0.0.1:19200" || strings.Contains(errs, "unbound") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", out, errs)
	}
	if l := leftovers(t, env); len(l) != 0 {
		t.Errorf("install left %v behind", l)
	}
	// Installed now: install only prints where.
	if out, errs, err := runScript(t, env, "install"); err != nil || !strings.HasSuffix(strings.TrimSpace(out), "opensearch-0.0.0-test") || strings.Contains(errs, "installing") {
		t.Fatalf("second install: %v\nstdout:\n%s\nstderr:\n%s", err, out, errs)
	}
	if _, _, err := runScript(t, env, "stop", dir); err != nil {
		t.Fatal(err)
	}
}

// TestScriptFailedFetchCleansUp: a fetch that fails ends start with the
// reason and leaves no temp dir in the cache.
func TestScriptFailedFetchCleansUp(t *testing.T) {
	env := fakeInstall(t, false)
	out, errs, err := runScript(t, env, "start", filepath.Join(t.TempDir(), "node"))
	if err == nil || !strings.Contains(errs, "mvn could not fetch") || strings.Contains(errs, "unbound") {
		t.Fatalf("start: %v\nstdout:\n%s\nstderr:\n%s", err, out, errs)
	}
	if l := leftovers(t, env); len(l) != 0 {
		t.Errorf("install left %v behind", l)
	}
}
