package exec

import (
	"context"
	"fmt"
	"strings"
)

// Listing is what listing a plan's scans found: the totals a batch
// query's progress is reported against.
type Listing struct {
	Splits int
	Bytes  int64
}

// ListScans plans the splits of every scan of st and of its input stages
// that has none yet (Splits nil), from the start to the source's Latest:
// a batch query reads what is there now. Scans that have splits keep
// them (VALUES, planned in memory), and so does skip when not nil: a
// stream's input, whose splits its runner sets every epoch. Join build
// sides are not listed here: LoadBuildSide lists them when it reads them.
//
// This is the I/O that compiling a plan leaves out, so that EXPLAIN never
// lists anything.
func ListScans(ctx context.Context, st *Stage, skip *Scan) (Listing, error) {
	var l Listing
	err := listScans(ctx, st, skip, false, &l)
	return l, err
}

// listScans lists the scans of st and its inputs; all lists again the
// ones that were listed before.
func listScans(ctx context.Context, st *Stage, skip *Scan, all bool, l *Listing) error {
	if sc := st.Scan; sc != nil && sc != skip && (all || sc.Splits == nil) {
		if err := sc.list(ctx); err != nil {
			return err
		}
		l.Splits += len(sc.Splits)
		for _, s := range sc.Splits {
			l.Bytes += s.Size()
		}
	}
	for _, in := range st.Inputs {
		if err := listScans(ctx, in, skip, all, l); err != nil {
			return err
		}
	}
	return nil
}

// list plans every split of the source as of now.
func (sc *Scan) list(ctx context.Context) error {
	name := sc.Name
	if name == "" {
		name = "scan"
	}
	latest, err := sc.Source.Latest(ctx)
	if err != nil {
		if strings.HasPrefix(err.Error(), "table "+name+": ") {
			return err // the source named itself (file tables do)
		}
		return fmt.Errorf("listing %s: %w", name, err)
	}
	splits, err := sc.Source.Plan(ctx, nil, latest)
	if err != nil {
		return fmt.Errorf("planning %s: %w", name, err)
	}
	sc.Splits = splits
	return nil
}
