package file

import "sluice/internal/connector"

var (
	_ connector.MetadataColumnSource = (*Source)(nil)
	_ connector.Streamable           = (*Source)(nil)
)

// MetadataColumns are the hidden columns every file table offers: the
// object each row came from and its ordinal there.
func (s *Source) MetadataColumns() []string {
	return []string{connector.FileColumn, connector.RowColumn}
}

// Stream is the streaming form of this (projected, filtered) source: it
// discovers new files epoch by epoch.
func (s *Source) Stream() (connector.StreamingSource, error) { return NewStreamSource(s) }
