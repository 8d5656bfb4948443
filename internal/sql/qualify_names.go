package sql

// QualifyNames returns st with the table or view name it names replaced
// by what q makes of it (a copy when it names one; st itself is left
// alone). Names inside queries are left to the binder, which resolves
// them after CTEs.
func QualifyNames(st Statement, q func(name *string) error) (Statement, error) {
	switch s := st.(type) {
	case *CreateTable:
		c := *s
		return &c, q(&c.Name)
	case *DropTable:
		c := *s
		return &c, q(&c.Name)
	case *DescribeTable:
		c := *s
		return &c, q(&c.Name)
	case *ShowCreateTable:
		c := *s
		return &c, q(&c.Name)
	case *ShowTblProperties:
		c := *s
		return &c, q(&c.Name)
	case *AlterTable:
		c := *s
		return &c, q(&c.Name)
	case *Insert:
		c := *s
		return &c, q(&c.Table)
	case *InsertStream:
		c := *s
		return &c, q(&c.Table)
	case *CreateMaterializedView:
		c := *s
		return &c, q(&c.Name)
	case *RefreshMaterializedView:
		c := *s
		return &c, q(&c.Name)
	case *DropMaterializedView:
		c := *s
		return &c, q(&c.Name)
	case *AlterMaterializedView:
		c := *s
		return &c, q(&c.Name)
	case *DescribeMaterializedView:
		c := *s
		return &c, q(&c.Name)
	case *VacuumMaterializedView:
		c := *s
		return &c, q(&c.Name)
	case *Explain:
		inner, err := QualifyNames(s.Stmt, q)
		if err != nil {
			return nil, err
		}
		c := *s
		c.Stmt = inner
		return &c, nil
	}
	return st, nil
}
