package sparkstmt

import (
	"context"
	"fmt"
	"strings"

	"sluice/internal/expr/functions"
	"sluice/internal/sql"
	"sluice/internal/suggest"
	"sluice/internal/usererr"
)

// DescribeFunction is DESCRIBE FUNCTION [EXTENDED] f in Spark's layout
// (one function_desc column of "Function: ...", "Usage: ..." lines),
// from the function registry; EXTENDED adds its kind and aliases.
func (e *Runner) DescribeFunction(_ context.Context, s *sql.DescribeFunction) (*Result, error) {
	d, ok := functions.Lookup(s.Name)
	if !ok || d.Operator {
		var known []string
		for _, f := range functions.All() {
			if !f.Operator {
				known = append(known, f.Name)
			}
		}
		err := usererr.Errorf(usererr.NotFound, "DESCRIBE FUNCTION: function %s not found", s.Name)
		if c := suggest.Closest(s.Name, known); c != "" {
			err = fmt.Errorf("%w; did you mean %q?", err, c)
		}
		return nil, err
	}
	rows := [][]string{{"Function: " + d.Name}, {"Usage: " + functionUsage(d)}}
	if s.Extended {
		rows = append(rows, []string{"Kind: " + string(d.Kind)})
		if len(d.Aliases) > 0 {
			rows = append(rows, []string{"Aliases: " + strings.Join(d.Aliases, ", ")})
		}
	}
	return stringRows([]string{"function_desc"}, rows), nil
}

// functionUsage is the registry's description of a function, or its
// arity when it has none.
func functionUsage(d *functions.Def) string {
	args := fmt.Sprintf("%d", d.MinArgs)
	switch {
	case d.MaxArgs < 0:
		args += " or more arguments"
	case d.MaxArgs != d.MinArgs:
		args += fmt.Sprintf(" to %d arguments", d.MaxArgs)
	case d.MinArgs == 1:
		args += " argument"
	default:
		args += " arguments"
	}
	u := d.Name + " takes " + args
	if d.Doc != "" {
		u += ": " + d.Doc
	}
	return u
}
