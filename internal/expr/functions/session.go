package functions

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"runtime/debug"
	"strings"
	"sync"

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

type userKey struct{}

// WithUser sets who runs the query for current_user(), user() and
// session_user(): the server's authenticated user.
func WithUser(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, userKey{}, name)
}

// processUser is the operating-system user running Sluice, Spark's
// default (its Hadoop user is the JVM's) when no one authenticated.
var processUser = sync.OnceValue(func() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "unknown"
})

// currentUser is the user set by WithUser, else the process's.
func currentUser(ctx context.Context) string {
	if u, ok := ctx.Value(userKey{}).(string); ok && u != "" {
		return u
	}
	return processUser()
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
	bindCurrentUser     = constStringFn(currentUser)
	// current_path() is Spark 4.2's default SQL path; Sluice has no SET
	// PATH, so the current database is its last entry.
	bindCurrentPath = constStringFn(func(ctx context.Context) string {
		db := currentDatabase(ctx)
		if strings.ContainsAny(db, ".`") || db != strings.ToLower(db) {
			db = "`" + strings.ReplaceAll(db, "`", "``") + "`"
		}
		return "system.builtin,system.session,spark_catalog." + db
	})
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
