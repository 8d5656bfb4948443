package opensearch

import (
	"encoding/json"
	"sort"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

// AnalyzerName is the analyzer text fields get in the indices the sink
// creates: OpenSearch's standard analyzer with Bleve's English stop
// words, so match() and match_phrase() mean the same in the engine, in
// the local index and in OpenSearch (positions included: a stop word
// leaves a gap in both).
const AnalyzerName = "sluice_standard"

var (
	stopOnce  sync.Once
	stopWords []string
)

// StopWords is Bleve's English stop word list, sorted.
func StopWords() []string {
	stopOnce.Do(func() {
		tm := analysis.NewTokenMap()
		if err := tm.LoadBytes(en.EnglishStopWords); err != nil {
			return
		}
		for w := range tm {
			stopWords = append(stopWords, w)
		}
		sort.Strings(stopWords)
	})
	return stopWords
}

// withAnalyzer adds the sluice_standard analyzer to index settings (a
// JSON object, or "" for none) unless they define one of that name.
func withAnalyzer(settings string) ([]byte, error) {
	m := map[string]any{}
	if settings != "" {
		if err := json.Unmarshal([]byte(settings), &m); err != nil {
			return nil, err
		}
	}
	root := m
	if idx, ok := m["index"].(map[string]any); ok {
		root = idx
	}
	analysisM, _ := root["analysis"].(map[string]any)
	if analysisM == nil {
		analysisM = map[string]any{}
		root["analysis"] = analysisM
	}
	analyzers, _ := analysisM["analyzer"].(map[string]any)
	if analyzers == nil {
		analyzers = map[string]any{}
		analysisM["analyzer"] = analyzers
	}
	if _, ok := analyzers[AnalyzerName]; !ok {
		analyzers[AnalyzerName] = map[string]any{"type": "standard", "stopwords": StopWords()}
	}
	return json.Marshal(m)
}
