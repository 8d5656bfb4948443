package server

import (
	"errors"
	"net/http"

	"sluice/internal/catalog"
	"sluice/internal/plan"
	"sluice/internal/suggest"
)

// Stages of the plugin's QueryProcessingStage, as its error reports name
// them: the key and its description.
var (
	stageAnalyzing = [2]string{"analyzing", "Parsing and validating the query"}
	stageExecuting = [2]string{"executing", "Running the query"}
)

// writePPLError answers an error of the PPL endpoint as the plugin's
// Calcite engine does (pplErrorBody).
func writePPLError(w http.ResponseWriter, err error) { writeBody(w, pplErrorBody(err)) }

// pplErrorBody is classify's body with the plugin's ErrorReport fields
// (ErrorReport.toJsonMap), for an error the plugin reports while it
// analyzes or runs a PPL query: code, location (outermost first),
// context with the stage and what the error is about, and a suggestion.
// reason is then the cause's own message, as the report's is. Syntax
// errors (found before analysis) and malformed requests keep the plain
// body, as the plugin's do.
//
//	{"error": {"type": "IndexNotFoundException", "code": "INDEX_NOT_FOUND",
//	  "reason": "no such index [x]", "details": "no such index [x]",
//	  "location": ["while preparing and validating the query plan", "while fetching index mappings"],
//	  "context": {"index_name": "x", "stage": "analyzing", "stage_description": "Parsing and validating the query"}},
//	 "status": 404}
func pplErrorBody(err error) errorBody {
	body := classify(err)
	info := &body.Error
	stage, location := stageAnalyzing, "while preparing and validating the query plan"
	context := map[string]any{}
	var noTable *catalog.TableNotFoundError
	var bind *plan.Error
	switch {
	case errors.As(err, &noTable):
		info.Code = "INDEX_NOT_FOUND"
		info.Location = []string{location, "while fetching index mappings"}
		context["index_name"] = noTable.Name
	case errors.As(err, &bind) && bind.Missing != nil && body.Status == http.StatusBadRequest:
		// The plugin's QualifiedNameResolver: reason in its words,
		// details Sluice's own (with the position and the columns).
		m := bind.Missing
		info.Type, info.Code, info.Reason = "IllegalArgumentException", "FIELD_NOT_FOUND", "Field ["+m.Name+"] not found."
		info.Location = []string{location}
		context["requested_field"], context["available_fields"] = m.Name, m.Available
		if bind.Pos.Line > 0 {
			context["query_pos"] = map[string]int{"line": bind.Pos.Line, "column": bind.Pos.Col}
		}
		if s := suggest.Closest(m.Name, m.Available); s != "" {
			info.Suggestion = "Did you mean: " + s
		}
	case info.Type == "SemanticCheckException", info.Type == "UnsupportedOperationException",
		info.Type == "IndexNotFoundException", bind != nil && body.Status < 500:
		info.Code = "UNKNOWN"
		info.Location = []string{location}
	case info.Type == "ExpressionEvaluationException":
		stage = stageExecuting
		info.Code, info.Location = "UNKNOWN", []string{"while running the query"}
	default:
		return body
	}
	if info.Code != "FIELD_NOT_FOUND" {
		info.Reason = info.Details
	}
	context["stage"], context["stage_description"] = stage[0], stage[1]
	info.Context = context
	return body
}
