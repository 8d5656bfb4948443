package exec

import (
	"context"
	"fmt"
)

// LoadBuildSide reads a hash join's build side in full and rebuilds the
// join's table from it: the scans of its build plan (see SetBuildPlan)
// are listed afresh, then the plan runs one epoch to WatermarkEnd. Joins
// inside the build plan must have been loaded first. A batch query loads
// every build side before its probe side streams; a stream-static join
// loads its lookup side again on an interval, to pick up changed data.
func LoadBuildSide(ctx context.Context, j *HashJoin) error {
	if j.buildPlan == nil {
		return fmt.Errorf("hash join: no build plan to load")
	}
	if err := listScans(ctx, j.buildPlan, nil, true, &Listing{}); err != nil {
		return err
	}
	if j.budget != nil {
		return loadBuildWithin(ctx, j)
	}
	coll := NewCollect()
	if err := Run(ctx, j.buildPlan, WatermarkEnd, coll, nil); err != nil {
		return err
	}
	return j.Rebuild(ctx, coll.Batches())
}
