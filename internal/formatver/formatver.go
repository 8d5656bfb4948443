// Package formatver is the table of every format Sluice persists, the
// version this binary writes of each and, for each version, the oldest
// binary that reads it. A file written before it carried a version is
// version 1. A binary reads every version up to its current one (older
// versions are migrated when it next writes the file) and refuses a
// newer one, naming the file, its version and the binary it needs, so a
// downgrade never misreads a data dir.
package formatver

import "fmt"

// Format is one persisted format.
type Format struct {
	// Name says what the format is, for messages ("checkpoint offsets").
	Name string
	// Where is the file's path in a data dir or checkpoint, for the docs.
	Where string
	// Readers[v-1] is the oldest binary that reads version v; the last
	// is the version this binary writes.
	Readers []string
}

// Current is the version this binary writes.
func (f *Format) Current() int { return len(f.Readers) }

// Reader is the oldest binary that reads version v, "" when this binary
// does not know v.
func (f *Format) Reader(v int) string {
	if v < 1 || v > len(f.Readers) {
		return ""
	}
	return f.Readers[v-1]
}

// Stamp is the version a JSON file carries; embedded in its record, it
// adds "format_version" and "format_reader" to the file. Reader is the
// oldest binary that reads it, kept in the file so that a binary older
// than that can name it.
type Stamp struct {
	Version int    `json:"format_version,omitempty"`
	Reader  string `json:"format_reader,omitempty"`
}

// Stamp is what a file written by this binary carries.
func (f *Format) Stamp() Stamp {
	return Stamp{Version: f.Current(), Reader: f.Reader(f.Current())}
}

// Check refuses file, whose stamp is s, when its version is newer than
// this binary reads. A file without a version is version 1.
func (f *Format) Check(file string, s Stamp) error {
	return f.CheckVersion(file, s.Version, s.Reader)
}

// CheckVersion is Check for a format that keeps its version in a field
// of its own: v (0 meaning 1) and reader, the oldest binary the file
// says reads it ("" when it does not say).
func (f *Format) CheckVersion(file string, v int, reader string) error {
	if v <= f.Current() {
		return nil
	}
	if reader == "" {
		reader = "a newer sluice"
	} else {
		reader = "sluice " + reader
	}
	return &NewerError{File: file, Format: f.Name, Version: v, Current: f.Current(), Reader: reader}
}

// NewerError is a file written in a version newer than this binary reads.
type NewerError struct {
	File    string
	Format  string
	Version int
	Current int
	Reader  string
}

func (e *NewerError) Error() string {
	return fmt.Sprintf("%s is %s format version %d, newer than this binary reads (up to %d): it needs %s; this binary refuses it rather than misread it",
		e.File, e.Format, e.Version, e.Current, e.Reader)
}
