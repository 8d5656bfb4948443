package sql_test

import (
	"fmt"

	"sluice/internal/sql"
	"sluice/internal/types"
)

func Example() {
	stmts, err := sql.Parse("select status, count(*) n from logs where status >= 500 group by status; SHOW TABLES")
	if err != nil {
		panic(err)
	}
	sel := stmts[0].(*sql.SelectStmt).Query.Body.(*sql.Select)
	fmt.Println(stmts[0])
	fmt.Println(sel.Items[1].Alias, sel.Where.(*sql.Binary).Op)
	fmt.Printf("%T\n", stmts[1])

	_, err = sql.Parse("SELECT a\nFROM t WHERE (b")
	fmt.Println(err)

	t, _ := sql.ParseType("struct<city string, tags array<string>>")
	fmt.Println(types.SQLName(t))
	// Output:
	// SELECT status, count(*) AS n FROM logs WHERE status >= 500 GROUP BY status
	// n >=
	// *sql.ShowTables
	// syntax error at line 2:16: expected ')' but found end of input
	// STRUCT<city: STRING, tags: ARRAY<STRING>>
}
