package functions

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

type databaseKey struct{}

// WithDatabase sets the session's current database (USE) for
// current_database() and current_schema().
func WithDatabase(ctx context.Context, db string) context.Context {
	return context.WithValue(ctx, databaseKey{}, db)
}

// currentDatabase is the database set by WithDatabase, else "default".
func currentDatabase(ctx context.Context) string {
	if db, ok := ctx.Value(databaseKey{}).(string); ok && db != "" {
		return db
	}
	return "default"
}

func constStringFn(f func(ctx context.Context) string) Binder {
	return func(args []Arg) (*Bound, error) {
		if len(args) != 0 {
			return nil, fmt.Errorf("expects no arguments")
		}
		return &Bound{Type: types.String, Eval: func(ctx context.Context, n int, _ []arrow.Array) (arrow.Array, error) {
			s := f(ctx)
			return strResult(n, nil, false, func(int) (string, bool) { return s, true }), nil
		}}, nil
	}
}

var (
	bindCurrentDatabase = constStringFn(currentDatabase)
	// Sluice's one catalog answers to Spark's name.
	bindCurrentCatalog = constStringFn(func(context.Context) string { return "spark_catalog" })
)

// version() is Sluice's build, "<module version> <vcs revision>" as Go
// recorded them (Spark's is "<spark version> <git hash>").
var bindVersion = constStringFn(func(context.Context) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			v += " " + s.Value
		}
	}
	return v
})
