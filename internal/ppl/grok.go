package ppl

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// grokPatterns is a small library of the common grok patterns, in Go
// regexp syntax (Logstash's definitions, trimmed where RE2 lacks
// look-around or possessive quantifiers).
var grokPatterns = map[string]string{
	"USERNAME":          `[a-zA-Z0-9._-]+`,
	"USER":              `%{USERNAME}`,
	"EMAILLOCALPART":    `[a-zA-Z0-9!#$%&'*+\-/=?^_{|}~]+(?:\.[a-zA-Z0-9!#$%&'*+\-/=?^_{|}~]+)*`,
	"EMAILADDRESS":      `%{EMAILLOCALPART}@%{HOSTNAME}`,
	"INT":               `[+-]?[0-9]+`,
	"BASE10NUM":         `[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)`,
	"NUMBER":            `%{BASE10NUM}`,
	"BASE16NUM":         `[+-]?(?:0x)?[0-9A-Fa-f]+`,
	"POSINT":            `[1-9][0-9]*`,
	"NONNEGINT":         `[0-9]+`,
	"WORD":              `\b\w+\b`,
	"NOTSPACE":          `\S+`,
	"SPACE":             `\s*`,
	"DATA":              `.*?`,
	"GREEDYDATA":        `.*`,
	"QUOTEDSTRING":      `"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`,
	"UUID":              `[A-Fa-f0-9]{8}-(?:[A-Fa-f0-9]{4}-){3}[A-Fa-f0-9]{12}`,
	"MAC":               `(?:[A-Fa-f0-9]{2}[:-]){5}[A-Fa-f0-9]{2}`,
	"IPV6":              `[0-9A-Fa-f:]*:[0-9A-Fa-f:.]+`,
	"IPV4":              `(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])`,
	"IP":                `(?:%{IPV4}|%{IPV6})`,
	"HOSTNAME":          `\b[0-9A-Za-z][0-9A-Za-z-]{0,62}(?:\.[0-9A-Za-z][0-9A-Za-z-]{0,62})*\.?\b`,
	"IPORHOST":          `(?:%{IP}|%{HOSTNAME})`,
	"HOSTPORT":          `%{IPORHOST}:%{POSINT}`,
	"PATH":              `(?:/[^\s?#]*)+`,
	"URIPROTO":          `[A-Za-z][A-Za-z0-9+\-.]*`,
	"URIHOST":           `%{IPORHOST}(?::%{POSINT})?`,
	"URIPATH":           `(?:/[A-Za-z0-9$.+!*'(){},~:;=@#%&_\-]*)+`,
	"URIPARAM":          `\?[A-Za-z0-9$.+!*'|(){},~@#%&/=:;_?\-\[\]<>]*`,
	"URIPATHPARAM":      `%{URIPATH}(?:%{URIPARAM})?`,
	"URI":               `%{URIPROTO}://(?:%{USER}(?::[^@]*)?@)?(?:%{URIHOST})?(?:%{URIPATHPARAM})?`,
	"MONTH":             `\b(?:[Jj]an(?:uary|uar)?|[Ff]eb(?:ruary|ruar)?|[Mm]ar(?:ch|z)?|[Aa]pr(?:il)?|[Mm]a(?:y|i)?|[Jj]un(?:e|i)?|[Jj]ul(?:y|i)?|[Aa]ug(?:ust)?|[Ss]ep(?:tember)?|[Oo]ct(?:ober)?|[Nn]ov(?:ember)?|[Dd]ec(?:ember)?)\b`,
	"MONTHNUM":          `(?:0?[1-9]|1[0-2])`,
	"MONTHDAY":          `(?:(?:0[1-9])|(?:[12][0-9])|(?:3[01])|[1-9])`,
	"DAY":               `(?:Mon(?:day)?|Tue(?:sday)?|Wed(?:nesday)?|Thu(?:rsday)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?)`,
	"YEAR":              `(?:\d\d){1,2}`,
	"HOUR":              `(?:2[0123]|[01]?[0-9])`,
	"MINUTE":            `(?:[0-5][0-9])`,
	"SECOND":            `(?:(?:[0-5]?[0-9]|60)(?:[:.,][0-9]+)?)`,
	"TIME":              `%{HOUR}:%{MINUTE}(?::%{SECOND})?`,
	"ISO8601_TIMEZONE":  `(?:Z|[+-]%{HOUR}(?::?%{MINUTE}))`,
	"ISO8601_SECOND":    `%{SECOND}`,
	"TIMESTAMP_ISO8601": `%{YEAR}-%{MONTHNUM}-%{MONTHDAY}[T ]%{HOUR}:?%{MINUTE}(?::?%{SECOND})?%{ISO8601_TIMEZONE}?`,
	"DATE_US":           `%{MONTHNUM}[/-]%{MONTHDAY}[/-]%{YEAR}`,
	"DATE_EU":           `%{MONTHDAY}[./-]%{MONTHNUM}[./-]%{YEAR}`,
	"DATE":              `%{DATE_US}|%{DATE_EU}`,
	"DATESTAMP":         `%{DATE}[- ]%{TIME}`,
	"HTTPDATE":          `%{MONTHDAY}/%{MONTH}/%{YEAR}:%{TIME} %{INT}`,
	"SYSLOGTIMESTAMP":   `%{MONTH} +%{MONTHDAY} %{TIME}`,
	"LOGLEVEL":          `(?:[Aa]lert|ALERT|[Tt]race|TRACE|[Dd]ebug|DEBUG|[Nn]otice|NOTICE|[Ii]nfo|INFO|[Ww]arn(?:ing)?|WARN(?:ING)?|[Ee]rr(?:or)?|ERR(?:OR)?|[Cc]rit(?:ical)?|CRIT(?:ICAL)?|[Ff]atal|FATAL|[Ss]evere|SEVERE|EMERG(?:ENCY)?|[Ee]merg(?:ency)?)`,
	"QS":                `%{QUOTEDSTRING}`,
	"COMMONAPACHELOG":   `%{IPORHOST:clientip} %{USER:ident} %{USER:auth} \[%{HTTPDATE:timestamp}\] "(?:%{WORD:verb} %{NOTSPACE:request}(?: HTTP/%{NUMBER:httpversion})?|%{DATA:rawrequest})" %{NUMBER:response} (?:%{NUMBER:bytes}|-)`,
	"COMBINEDAPACHELOG": `%{COMMONAPACHELOG} %{QS:referrer} %{QS:agent}`,
}

var grokRef = regexp.MustCompile(`%\{(\w+)(?::([\w.@\-\[\]]+))?(?::(int|float|long|double))?\}`)

// expandGrok turns a grok pattern into a Go regexp whose named groups
// are g0, g1, ...: names[i] is the field of group gi and casts[i] its
// SQL type ("" for a string).
func expandGrok(pattern string) (string, []string, []string, error) {
	var names, casts []string
	var expand func(p string, depth int) (string, error)
	expand = func(p string, depth int) (string, error) {
		if depth > 20 {
			return "", fmt.Errorf("patterns refer to each other too deeply")
		}
		var err error
		out := grokRef.ReplaceAllStringFunc(p, func(m string) string {
			sub := grokRef.FindStringSubmatch(m)
			def, ok := grokPatterns[sub[1]]
			if !ok {
				if err == nil {
					err = fmt.Errorf("unknown pattern %%{%s}", sub[1])
				}
				return ""
			}
			inner, e := expand(def, depth+1)
			if e != nil && err == nil {
				err = e
			}
			name := sub[2]
			if name == "" && depth == 0 && !slices.Contains(names, sub[1]) {
				// A top-level reference without a name is a field named
				// after the pattern, as the plugin's grok returns it (once).
				name = sub[1]
			}
			if name == "" {
				return "(?:" + inner + ")"
			}
			cast := ""
			switch sub[3] {
			case "int", "long":
				cast = "BIGINT"
			case "float", "double":
				cast = "DOUBLE"
			}
			names, casts = append(names, name), append(casts, cast)
			return fmt.Sprintf("(?P<g%d>%s)", len(names)-1, inner)
		})
		return out, err
	}
	re, err := expand(pattern, 0)
	if err != nil {
		return "", nil, nil, err
	}
	return re, names, casts, nil
}

// grokIndex reads the i of a group named gi; -1 for other names.
func grokIndex(name string) int {
	if !strings.HasPrefix(name, "g") {
		return -1
	}
	n, err := strconv.Atoi(name[1:])
	if err != nil {
		return -1
	}
	return n
}
