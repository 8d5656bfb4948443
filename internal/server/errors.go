package server

import (
	"errors"
	"net/http"

	"sluice/internal/catalog"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// errorBody is the plugin's error response:
//
//	{"error": {"reason": "Invalid SQL query", "details": "...", "type": "SyntaxCheckException"}, "status": 400}
type errorBody struct {
	Error  errorInfo `json:"error"`
	Status int       `json:"status"`
}

type errorInfo struct {
	Reason  string `json:"reason"`
	Details string `json:"details"`
	Type    string `json:"type"`
	// The Calcite engine's error report (errorReport): on the PPL
	// endpoint only, as the plugin's PPL docs show it.
	Code       string         `json:"code,omitempty"`
	Location   []string       `json:"location,omitempty"`
	Context    map[string]any `json:"context,omitempty"`
	Suggestion string         `json:"suggestion,omitempty"`
}

// requestError is a malformed request (bad JSON, no query, an unknown
// cursor): 400.
type requestError struct{ msg string }

func (e *requestError) Error() string { return e.msg }

func badRequest(msg string) error { return &requestError{msg: msg} }

// notFoundError is a request for something the server does not have (an
// async query id, a stream): 404.
type notFoundError struct{ msg string }

func (e *notFoundError) Error() string { return e.msg }

// classify maps an error to the plugin's status and exception type. A
// user error (usererr: something in the statement or its data the user
// can fix) is 4xx: 400 for SQL the engine rejects (syntax and binding
// errors carry their line:column in details), bad options and values and
// rows an expression cannot compute, 404 for what does not exist, 403
// for what the role may not do. Anything else is an internal failure:
// 500.
func classify(err error) errorBody {
	if b, ok := classifyLimits(err); ok {
		return b
	}
	if b, ok := classifyPPL(err); ok {
		return b
	}
	var syn *sql.Error
	var bind *plan.Error
	var req *requestError
	var nf *notFoundError
	user := func(status int, reason, typ string) errorBody {
		return errorBody{Status: status, Error: errorInfo{Reason: reason, Details: err.Error(), Type: typ}}
	}
	if kind, ok := usererr.KindOf(err); ok && kind == usererr.Forbidden {
		// 403 wherever it was found: the binder finds a refused direct
		// file query (the engine's data access), at its line:column.
		return classifyUser(kind, user)
	}
	var asyncReq *asyncRequestError
	var asyncNF *asyncNotFoundError
	switch {
	case errors.As(err, &asyncReq):
		return user(http.StatusBadRequest, "Invalid Request", "IllegalArgumentException")
	case errors.As(err, &asyncNF):
		return user(http.StatusBadRequest, "Invalid Request", "AsyncQueryNotFoundException")
	}
	var noTable *catalog.TableNotFoundError
	if errors.As(err, &noTable) {
		// As OpenSearch answers for an index it does not have.
		msg := "no such index [" + noTable.Name + "]"
		return errorBody{Status: http.StatusNotFound, Error: errorInfo{Reason: msg, Details: msg, Type: "IndexNotFoundException"}}
	}
	switch {
	case errors.As(err, &nf):
		return user(http.StatusNotFound, "Not found", "ResourceNotFoundException")
	case errors.As(err, &req):
		return user(http.StatusBadRequest, "Invalid request", "IllegalArgumentException")
	case errors.As(err, &syn):
		return user(http.StatusBadRequest, "Invalid SQL query", "SyntaxCheckException")
	case errors.As(err, &bind) && (bind.Err == nil || usererr.IsUser(bind.Err)):
		if errors.Is(err, catalog.ErrNotFound) {
			return user(http.StatusNotFound, "Invalid SQL query", "IndexNotFoundException")
		}
		return user(http.StatusBadRequest, "Invalid SQL query", "SemanticCheckException")
	case bind != nil:
		// Binding failed for a reason that is not the statement's (a
		// store that did not answer while a table was opened).
	default:
		if kind, ok := usererr.KindOf(err); ok {
			return classifyUser(kind, user)
		}
	}
	return errorBody{Status: http.StatusInternalServerError, Error: errorInfo{Reason: "There was internal problem at backend", Details: err.Error(), Type: "InternalError"}}
}

// classifyUser is the status and exception type of each kind of user
// error, named as the OpenSearch SQL plugin names its own.
func classifyUser(kind usererr.Kind, user func(status int, reason, typ string) errorBody) errorBody {
	switch kind {
	case usererr.NotFound:
		return user(http.StatusNotFound, "Invalid SQL query", "IndexNotFoundException")
	case usererr.Exists:
		return user(http.StatusBadRequest, "Invalid SQL query", "IllegalArgumentException")
	case usererr.Forbidden:
		return user(http.StatusForbidden, "Forbidden", "SecurityException")
	case usererr.Unsupported:
		return user(http.StatusBadRequest, "Invalid SQL query", "UnsupportedOperationException")
	case usererr.Evaluation:
		return user(http.StatusBadRequest, "Invalid SQL query", "ExpressionEvaluationException")
	}
	return user(http.StatusBadRequest, "Invalid SQL query", "IllegalArgumentException")
}

func writeError(w http.ResponseWriter, err error) { writeBody(w, classify(err)) }

// writeBody answers an error body.
func writeBody(w http.ResponseWriter, body errorBody) {
	body.Error.Details = redactSecrets(body.Error.Details)
	auditError(w, body)
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(body.Status)
	_ = writeJSON(w, body, false)
}
