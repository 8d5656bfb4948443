package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

// Version is the build's version, set with -ldflags "-X sluice/internal/cli.Version=v1.2.3".
// Left at "dev", VersionString reads what Go recorded in the binary instead.
var Version = "dev"

// VersionString is the version `sluice version` and the shell banner show:
// the -ldflags version when one was set, else the module version and the
// commit Go stamped into the build (with "+dirty" for uncommitted changes),
// the same commit SELECT version() reports.
func VersionString() string {
	if Version != "dev" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Version
	}
	return versionFromBuildInfo(bi)
}

func versionFromBuildInfo(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	// A pseudo-version (v0.0.0-20261202062116-695e42bcb935+dirty) names
	// the commit already; a tag or "(devel)" gets it appended.
	if rev != "" && !strings.Contains(v, rev[:min(12, len(rev))]) {
		v += " " + rev + dirty
	}
	return v
}

// PrintVersion writes "sluice <version> (<go version> <os>/<arch>)".
func PrintVersion(w io.Writer) {
	fmt.Fprintf(w, "sluice %s (%s %s/%s)\n", VersionString(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
