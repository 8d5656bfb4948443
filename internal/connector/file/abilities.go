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

var _ connector.LimitPusher = (*Source)(nil)

// PushLimit makes each split stop decoding after n rows: a LIMIT over a
// plain scan then reads a few batches of the first files, not all of them.
func (s *Source) PushLimit(n int64) (connector.Source, error) {
	c := *s
	c.limit = n
	c.stats, c.last = &planStats{}, &lastOffset{}
	return &c, nil
}
