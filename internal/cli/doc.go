// Package cli is everything behind `sluice sql` apart from flag parsing:
// running scripts statement by statement, the interactive shell, the
// progress bar, and the result formats (table, csv, json, jsonl).
//
//	err := cli.RunSQL(ctx, cli.Options{
//		DataDir: "./sluice-data", Format: "csv",
//		Exec:    "SELECT status, count(*) AS n FROM http_logs GROUP BY status",
//		Stdout:  os.Stdout, Stderr: os.Stderr,
//	})
//	// status,n
//	// 200,217
//	// 404,34
//
// Formatters are also usable alone:
//
//	f, _ := cli.NewFormatter("table")
//	cli.WriteResult(os.Stdout, f, result) // an *engine.Result
//
// Values print as types.Text spells them, the renderer the server and
// the .slt files share: types.FormatValue's Spark style except nested
// ones, which are JSON in every format; the json and jsonl formats write
// real JSON values (types.AppendJSON) with ISO-8601 timestamps.
package cli
