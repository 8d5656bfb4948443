package plan

import (
	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// IsWindowKey recognises an event-time window as a GROUP BY key (TUMBLE,
// HOP, window(...)): a STRUCT whose first two fields are TIMESTAMP start
// and end. A streaming aggregation keyed by one keeps state per window
// and can close windows as the watermark passes them.
func IsWindowKey(e expr.Expr) bool {
	st, ok := e.Type().(*arrow.StructType)
	if !ok || st.NumFields() < 2 {
		return false
	}
	return st.Field(0).Name == "start" && st.Field(1).Name == "end" &&
		st.Field(0).Type.ID() == arrow.TIMESTAMP && st.Field(1).Type.ID() == arrow.TIMESTAMP
}
