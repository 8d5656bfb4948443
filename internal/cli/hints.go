package cli

// hint is a line of advice for an error a habit from another database
// causes, "" when there is none.
func hint(input string, err error) string { return "" }
