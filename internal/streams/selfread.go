package streams

import (
	"strings"

	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/plan"
	"sluice/internal/usererr"
)

// checkSelfRead refuses a stream whose query reads the table it writes:
// every epoch would read the rows the previous one wrote and write them
// again, forever. The bound plan is searched, so a read through a view,
// a subquery, a CTE or either side of a join counts, as does another
// table over the same data (the same location, one folder inside the
// other, or the same index path). A materialized view's stream writes the
// view itself, so a view that reads itself is refused the same way.
func (m *Streams) checkSelfRead(stream string, n plan.Node, sink connector.TableSpec) error {
	var err error
	walkScans(n, func(s *plan.Scan) {
		if err != nil {
			return
		}
		if strings.EqualFold(s.Table, sink.Name) {
			err = usererr.Errorf(usererr.Invalid, "stream %s: the query reads %s, the table it writes: each epoch would read its own output", stream, sink.Name)
			return
		}
		t, terr := m.h.Catalog().Table(s.Table)
		if terr != nil {
			return
		}
		if registry.SameData(t.Spec, sink) {
			err = usererr.Errorf(usererr.Invalid, "stream %s: the query reads %s, which holds the same data as %s, the table it writes: each epoch would read its own output", stream, s.Table, sink.Name)
		}
	})
	return err
}

func walkScans(n plan.Node, fn func(*plan.Scan)) {
	if s, ok := n.(*plan.Scan); ok {
		fn(s)
	}
	for _, c := range n.Children() {
		walkScans(c, fn)
	}
}
