package functions

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"sluice/internal/types"
)

// brain_patterns(messages, variable_count_threshold, frequency_threshold)
// is OpenSearch's Brain log parser (PPL patterns method=brain) over one
// group of log lines: a map from each distinct message to its pattern,
// variable tokens replaced by <*> (<*IP*>, <*DATETIME*>, <*UUID*> for
// those). The pattern of a message depends on the whole group, so the
// PPL translation collects the group's messages (collect_list) and looks
// each row's message up in the map. NULL messages are left out.
func bindBrainPatterns(args []Arg) (*Bound, error) {
	return rowFn("brain_patterns", types.Map(types.String), ps(pTo(types.Array(types.String)), pInt, pDouble), func(v []any) (any, error) {
		vct, pct := v[1].(int64), v[2].(float64)
		if pct < 0 || pct > 1 {
			return nil, fmt.Errorf("the frequency threshold percentage must be between 0.0 and 1.0, got %v", pct)
		}
		var msgs []string
		for _, m := range items(v[0]) {
			if s, ok := m.(string); ok {
				msgs = append(msgs, s)
			}
		}
		out := map[string]any{}
		for m, p := range brainParse(msgs, int(vct), pct) {
			out[m] = p
		}
		return out, nil
	})(args)
}

// The parser's default filters, in order (BrainLogParser's
// DEFAULT_FILTER_PATTERN_VARIABLE_MAP). Java's (?!\d{3}$) before \d{4,}
// can never fail, so it is left out (RE2 has no lookahead); the last
// filter, a number between non-alphanumerics, needs lookaround and is
// brainNumbers.
var brainFilters = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`(/|)([0-9]+\.){3}[0-9]+(:[0-9]+|)(:|)`), "<*IP*>"},
	{regexp.MustCompile(`(\d{4}-\d{2}-\d{2})[T ]?(\d{2}:\d{2}:\d{2})(\.\d{3})?(Z|([+-]\d{2}:?\d{2}))?`), "<*DATETIME*>"},
	{regexp.MustCompile(`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`), "<*UUID*>"},
	{regexp.MustCompile(`((0x|0X)[0-9a-fA-F]+)|[a-zA-Z]+\d+|([+-]?\d{4,}(\.\d*)?|\.\d+)`), "<*>"},
}

var brainSpace = regexp.MustCompile(`\s+`)

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// brainNumbers replaces (?<=[^A-Za-z0-9 ])(-?\+?\d+)(?=[^A-Za-z0-9]) with
// <*>: a run of digits (optionally signed) right after a character that
// is neither alphanumeric nor a blank and right before a character that
// is not alphanumeric.
func brainNumbers(s string) string {
	var b strings.Builder
	i, last := 0, 0
	for i < len(s) {
		if i == 0 || isAlnum(s[i-1]) || s[i-1] == ' ' {
			i++
			continue
		}
		j := i
		if j < len(s) && s[j] == '-' {
			j++
		}
		if j < len(s) && s[j] == '+' {
			j++
		}
		k := j
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		if k == j || k >= len(s) || isAlnum(s[k]) {
			i++
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString("<*>")
		i, last = k, k
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// brainTokens is BrainLogParser.preprocess: the filters, the delimiters
// "," and "+" as blanks, then the trimmed text split at whitespace.
func brainTokens(msg string) []string {
	for _, f := range brainFilters {
		msg = f.re.ReplaceAllLiteralString(msg, f.with)
	}
	msg = brainNumbers(msg)
	msg = strings.NewReplacer(",", " ", "+", " ").Replace(msg)
	return brainSpace.Split(strings.Trim(msg, " \t\n\f\r\v"), -1)
}

// brainParse returns each distinct message's pattern. A token's
// frequency is how many messages have it at its position. Each message
// belongs to the group of its representative frequency: among the
// frequencies of its tokens, the one most tokens share (ties: the higher
// frequency) that exceeds pct of its highest token frequency. Within the
// group (and message length), a token more frequent than the
// representative one is a variable unless it is the only token at its
// position; a less frequent one is a variable when vct or more tokens
// occur at its position.
func brainParse(msgs []string, vct int, pct float64) map[string]string {
	type posTok struct {
		pos int
		tok string
	}
	type combo struct{ freq, count int }
	type slot struct {
		n   int
		grp combo
		pos int
	}
	toks := make([][]string, len(msgs))
	freq := map[posTok]int{}
	for i, m := range msgs {
		toks[i] = brainTokens(m)
		for p, t := range toks[i] {
			freq[posTok{p, t}]++
		}
	}
	groups := make([]combo, len(msgs))
	sets := map[slot]map[string]bool{}
	for i, ts := range toks {
		occ := map[int]int{}
		for p, t := range ts {
			occ[freq[posTok{p, t}]]++
		}
		var cs []combo
		maxFreq := 0
		for f, c := range occ {
			cs = append(cs, combo{f, c})
			maxFreq = max(maxFreq, f)
		}
		sort.Slice(cs, func(a, b int) bool {
			if cs[a].count != cs[b].count {
				return cs[a].count > cs[b].count
			}
			return cs[a].freq > cs[b].freq
		})
		g := cs[0]
		threshold := float64(float32(maxFreq) * float32(pct))
		for _, c := range cs {
			if float64(c.freq) > threshold {
				g = c
				break
			}
		}
		groups[i] = g
		for p, t := range ts {
			k := slot{len(ts), g, p}
			if sets[k] == nil {
				sets[k] = map[string]bool{}
			}
			sets[k][t] = true
		}
	}
	out := make(map[string]string, len(msgs))
	for i, ts := range toks {
		if _, done := out[msgs[i]]; done {
			continue
		}
		g := groups[i]
		parts := make([]string, len(ts))
		for p, t := range ts {
			f, n := freq[posTok{p, t}], len(sets[slot{len(ts), g, p}])
			switch {
			case f > g.freq && n != 1, f < g.freq && n >= vct:
				parts[p] = "<*>"
			default:
				parts[p] = collapseWildcards(t)
			}
		}
		out[msgs[i]] = strings.Join(parts, " ")
	}
	return out
}

// collapseWildcards turns runs of <*><*>... inside a token into one <*>.
func collapseWildcards(t string) string {
	for strings.Contains(t, "<*><*>") {
		t = strings.ReplaceAll(t, "<*><*>", "<*>")
	}
	return t
}
