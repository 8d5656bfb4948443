package integration

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Script is the path of the repository's scripts/name, found by walking
// up from the working directory (a test's is its package's) to the
// module root.
func Script(name string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "scripts", name)
		if _, err := os.Stat(p); err == nil {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return p, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("scripts/" + name + " not found above the working directory")
		}
		dir = parent
	}
}

// RunScript runs scripts/name with args and returns its standard output
// trimmed (an installer prints what it installed); a failure carries
// its standard error.
func RunScript(name string, args ...string) (string, error) {
	script, err := Script(name)
	if err != nil {
		return "", err
	}
	cmd := exec.Command(script, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v: %s", script, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}
