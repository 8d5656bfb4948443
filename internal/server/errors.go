package server

import (
	"errors"
	"net/http"

	"sluice/internal/catalog"
	"sluice/internal/engine"
	"sluice/internal/plan"
	"sluice/internal/sql"
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

// classify maps an error to the plugin's status and exception type: 400
// for SQL the engine rejects (syntax errors and binding errors carry
// their line:column in details), 404 for a table that does not exist,
// 500 for anything else.
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
	switch {
	case errors.As(err, &nf):
		return errorBody{Status: http.StatusNotFound, Error: errorInfo{Reason: "Not found", Details: err.Error(), Type: "ResourceNotFoundException"}}
	case errors.As(err, &req):
		return errorBody{Status: http.StatusBadRequest, Error: errorInfo{Reason: "Invalid request", Details: err.Error(), Type: "IllegalArgumentException"}}
	case errors.Is(err, catalog.ErrNotFound):
		return errorBody{Status: http.StatusNotFound, Error: errorInfo{Reason: "Invalid SQL query", Details: err.Error(), Type: "IndexNotFoundException"}}
	case errors.Is(err, catalog.ErrExists):
		return errorBody{Status: http.StatusBadRequest, Error: errorInfo{Reason: "Invalid SQL query", Details: err.Error(), Type: "IllegalArgumentException"}}
	case errors.As(err, &syn):
		return errorBody{Status: http.StatusBadRequest, Error: errorInfo{Reason: "Invalid SQL query", Details: err.Error(), Type: "SyntaxCheckException"}}
	case errors.As(err, &bind):
		return errorBody{Status: http.StatusBadRequest, Error: errorInfo{Reason: "Invalid SQL query", Details: err.Error(), Type: "SemanticCheckException"}}
	case errors.Is(err, engine.ErrNotSupported):
		return errorBody{Status: http.StatusBadRequest, Error: errorInfo{Reason: "Invalid SQL query", Details: err.Error(), Type: "UnsupportedOperationException"}}
	}
	return errorBody{Status: http.StatusInternalServerError, Error: errorInfo{Reason: "There was internal problem at backend", Details: err.Error(), Type: "InternalError"}}
}

func writeError(w http.ResponseWriter, err error) {
	body := classify(err)
	body.Error.Details = redactSecrets(body.Error.Details)
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(body.Status)
	_ = writeJSON(w, body, false)
}
