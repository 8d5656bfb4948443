package sql

import (
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"
)

// soupVocab is the token vocabulary for TestTokenSoup: every keyword and
// operator the grammar knows, plus a few names and literals.
var soupVocab = strings.Fields(`SELECT DISTINCT ALL FROM WHERE GROUP BY HAVING ORDER ASC DESC NULLS FIRST LAST LIMIT OFFSET
	UNION WITH AS JOIN INNER LEFT RIGHT FULL OUTER CROSS ON USING VALUES AND OR NOT IS NULL TRUE FALSE IN BETWEEN
	LIKE ILIKE RLIKE REGEXP ESCAPE CASE WHEN THEN ELSE END CAST TRY_CAST EXTRACT INTERVAL DATE TIMESTAMP
	CREATE TABLE IF EXISTS MATERIALIZED VIEW DROP SHOW TABLES DESCRIBE DESC INSERT INTO OVERWRITE STREAM STREAMS
	REFRESH ALTER STOP START EXPLAIN ANALYZE VERBOSE SET RESET SETTINGS OPTIONS LOCATION PARTITIONED COMMENT
	WATERMARK FOR INT STRING ARRAY MAP STRUCT DECIMAL MINUTE MINUTES HOUR
	a b t u x date count f ` + "`q`" + ` 1 2.5 3e2 'x' '2026-01-01' '5 minutes'
	( ) ( ) [ ] . , , ; : :: = == <> != < <= > >= + - * / % || *`)

// TestTokenSoup parses random token sequences: Parse must not panic, and
// what parses must have a stable canonical form. It complements
// FuzzParse, whose byte mutations rarely form valid statements. For a
// longer run: SOUP_SEED=7 SOUP_N=2000000 go test -run TokenSoup.
func TestTokenSoup(t *testing.T) {
	seed := int64(1)
	if s := os.Getenv("SOUP_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	rng := rand.New(rand.NewSource(seed))
	n := 20000
	if s := os.Getenv("SOUP_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	if testing.Short() {
		n = 2000
	}
	ok := 0
	for i := 0; i < n; i++ {
		var toks []string
		if rng.Intn(2) == 0 {
			// Mutate a valid statement: replace, insert or drop a few tokens.
			src := roundTrips[rng.Intn(len(roundTrips))].in
			for _, tk := range tokenize(src) {
				if tk.kind != tkEOF {
					toks = append(toks, src[tk.off:tk.end])
				}
			}
			for m := 1 + rng.Intn(3); m > 0 && len(toks) > 0; m-- {
				j := rng.Intn(len(toks))
				switch rng.Intn(3) {
				case 0:
					toks[j] = soupVocab[rng.Intn(len(soupVocab))]
				case 1:
					toks = append(toks[:j], append([]string{soupVocab[rng.Intn(len(soupVocab))]}, toks[j:]...)...)
				default:
					toks = append(toks[:j], toks[j+1:]...)
				}
			}
		} else {
			toks = make([]string, 1+rng.Intn(14))
			for j := range toks {
				toks[j] = soupVocab[rng.Intn(len(soupVocab))]
			}
			if rng.Intn(2) == 0 {
				toks = append([]string{"SELECT"}, toks...)
			}
		}
		in := strings.Join(toks, " ")
		stmts, err := Parse(in)
		if err != nil {
			continue
		}
		ok++
		first := canonical(stmts)
		again, err := Parse(first)
		if err != nil {
			t.Fatalf("%q: canonical form %q does not parse: %v", in, first, err)
		}
		if second := canonical(again); second != first {
			t.Fatalf("%q: canonical form is not stable:\n%s\n%s", in, first, second)
		}
	}
	t.Logf("%d of %d token sequences parsed", ok, n)
}
