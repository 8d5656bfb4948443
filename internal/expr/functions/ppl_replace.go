package functions

import (
	"regexp"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// pcreGroupRef is a \1 group reference, which PPL accepts beside Java's $1.
var pcreGroupRef = regexp.MustCompile(`\\(\d+)`)

// ppl_replace(s, pattern, replacement) is PPL's REPLACE: every match of a
// regular expression replaced, $1 or \1 naming a group. Spark's replace
// of the same name replaces a literal string, so PPL cannot borrow it.
var bindPPLReplace = regexStr("ppl_replace", []param{pString, pString, pString}, func(re *regexp.Regexp, args []arrow.Array, i int) (string, bool) {
	rep := args[2].(*array.String).Value(i)
	rep = pcreGroupRef.ReplaceAllString(rep, "$$$1")
	rep = javaGroupRef.ReplaceAllString(rep, "$${$1}")
	return re.ReplaceAllString(args[0].(*array.String).Value(i), rep), true
})
