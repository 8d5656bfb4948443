package catalog

import "fmt"

// TableNotFoundError is a lookup of a table the catalog does not have.
// It is ErrNotFound (errors.Is) with the name kept, so the REST API can
// answer as OpenSearch does for an unknown index (no such index [name]).
type TableNotFoundError struct{ Name string }

func (e *TableNotFoundError) Error() string { return fmt.Sprintf("table %q not found", e.Name) }

func (e *TableNotFoundError) Unwrap() error { return ErrNotFound }
