package backup

import (
	"encoding/json"
	"fmt"
	"time"

	"sluice/internal/formatver"
)

// ManifestName is the manifest's key under a backup's prefix, written
// after every file it lists: a backup without one is unfinished.
const ManifestName = "manifest.json"

// Manifest says what a backup holds and how to check it.
type Manifest struct {
	// Stamp is the manifest's own format (formatver.Backup).
	formatver.Stamp
	// Binary is the version of the sluice that took it.
	Binary string `json:"binary"`
	// Created is when the backup started (UTC).
	Created time.Time `json:"created"`
	// DataDir is the absolute path of the data dir copied: the catalog
	// names its checkpoints and indexes by absolute path, which a
	// restore elsewhere rewrites.
	DataDir string `json:"data_dir"`
	// Formats are the versions of the persisted formats the binary
	// that took it writes: a restoring binary refuses a newer one.
	Formats []FormatVersion `json:"formats"`
	// Checkpoints are the checkpoints copied, each as of its last commit.
	Checkpoints []Checkpoint `json:"checkpoints"`
	// Files are every file of the data dir copied, '/'-separated paths
	// relative to it, sorted.
	Files []File `json:"files"`
}

// FormatVersion is one persisted format's version.
type FormatVersion struct {
	Name    string `json:"name"`
	Version int    `json:"version"`
	Reader  string `json:"reader,omitempty"`
}

// Checkpoint is one checkpoint (a stream's, a worker slot's or a keyed
// partition's) and the last epoch it had committed when copied; -1
// when it had none.
type Checkpoint struct {
	Path       string `json:"path"`
	LastCommit int64  `json:"last_commit"`
}

// File is one copied file.
type File struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// Mode is the file's permission bits (secrets.json is 0600).
	Mode uint32 `json:"mode,omitempty"`
}

// currentFormats is what this binary writes of every format.
func currentFormats() []FormatVersion {
	out := make([]FormatVersion, 0, len(formatver.All))
	for _, f := range formatver.All {
		out = append(out, FormatVersion{Name: f.Name, Version: f.Current(), Reader: f.Reader(f.Current())})
	}
	return out
}

// check refuses a manifest, or a format it lists, newer than this
// binary reads. A format this binary does not know is refused too: it
// came from a newer binary.
func (m *Manifest) check(where string) error {
	if err := formatver.Backup.Check(where, m.Stamp); err != nil {
		return err
	}
	known := map[string]*formatver.Format{}
	for _, f := range formatver.All {
		known[f.Name] = f
	}
	for _, fv := range m.Formats {
		f := known[fv.Name]
		if f == nil {
			reader := "a newer sluice"
			if fv.Reader != "" {
				reader = "sluice " + fv.Reader
			}
			return fmt.Errorf("%s holds %s (format version %d), which this binary does not know: it needs %s", where, fv.Name, fv.Version, reader)
		}
		if err := f.CheckVersion(where+" ("+fv.Name+")", fv.Version, fv.Reader); err != nil {
			return err
		}
	}
	return nil
}

func decodeManifest(where string, data []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("reading %s: %w", where, err)
	}
	if err := m.check(where); err != nil {
		return nil, err
	}
	return &m, nil
}

func jsonIndent(m *Manifest) ([]byte, error) {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", ManifestName, err)
	}
	return append(data, '\n'), nil
}
