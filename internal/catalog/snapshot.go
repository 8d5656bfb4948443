package catalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ReadFiles reads dir's catalog.json and secrets store as one pair,
// under the lock every writer holds, for a backup: read apart, a
// writer between the two could leave a catalog naming a secret the
// store read after no longer has. A missing file is nil.
func ReadFiles(dir string) (catalogJSON, secrets []byte, err error) {
	c := &Catalog{path: filepath.Join(dir, fileName)}
	unlock, err := c.lockFile()
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	read := func(name string) ([]byte, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		return b, nil
	}
	if catalogJSON, err = read(fileName); err != nil {
		return nil, nil, err
	}
	if secrets, err = read(SecretsFile); err != nil {
		return nil, nil, err
	}
	return catalogJSON, secrets, nil
}
