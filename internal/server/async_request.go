package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// parseAsyncRequest reads an async submission as the plugin does
// (CreateAsyncQueryRequestConverter): query, datasource and lang are
// required strings, lang is sql or ppl (any case), and a field it does
// not know is an error. Each failure is a 400 IllegalArgumentException
// "Error while parsing the request body: ...", the plugin's words.
// datasource is not looked up: Sluice is the one data source there is.
// Beyond the plugin, filter and parameters are read as the sync
// endpoints read them (withFilter, bindRequest).
func parseAsyncRequest(body []byte) (asyncRequest, error) {
	var req asyncRequest
	fail := func(msg string) (asyncRequest, error) {
		return asyncRequest{}, &asyncRequestError{msg: "Error while parsing the request body: " + msg}
	}
	var fields map[string]json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&fields); err != nil || fields == nil {
		return fail("want a JSON object with query, datasource and lang")
	}
	str := func(name string) (string, bool, error) {
		raw, ok := fields[name]
		if !ok || string(raw) == "null" {
			return "", false, nil
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", false, fmt.Errorf("%s must be a string", name)
		}
		return s, true, nil
	}
	for name := range fields {
		switch name {
		case "query", "datasource", "lang", "sessionId":
		case "filter":
			// Not the plugin's (its converter refuses the field): the sync
			// endpoints' filter and parameters, applied alike.
			req.Filter = fields[name]
		case "parameters":
			if err := json.Unmarshal(fields[name], &req.Parameters); err != nil {
				return fail("parameters must be a list of {\"type\", \"value\"}")
			}
		default:
			return fail("Unknown field: " + name)
		}
	}
	var err error
	var ok bool
	if req.Query, ok, err = str("query"); err != nil {
		return fail(err.Error())
	} else if !ok {
		return fail("Query can't be null")
	}
	if req.Lang, ok, err = str("lang"); err != nil {
		return fail(err.Error())
	} else if !ok {
		return fail("lang can't be null")
	}
	switch strings.ToLower(req.Lang) {
	case "sql", "ppl":
		req.Lang = strings.ToLower(req.Lang)
	case "promql":
		return asyncRequest{}, badRequest("lang promql: Sluice runs sql and ppl")
	default:
		return fail("No LangType with text " + req.Lang + " found")
	}
	if req.Datasource, ok, err = str("datasource"); err != nil {
		return fail(err.Error())
	} else if !ok {
		return fail("Datasource can't be null")
	}
	if req.SessionID, _, err = str("sessionId"); err != nil {
		return fail(err.Error())
	}
	if strings.TrimSpace(req.Query) == "" {
		return asyncRequest{}, badRequest("the request has no query")
	}
	return req, nil
}

// asyncRequestError is a submission the plugin would not parse: 400,
// reason "Invalid Request" as the async API words it.
type asyncRequestError struct{ msg string }

func (e *asyncRequestError) Error() string { return e.msg }

// asyncNotFoundError is a query id the server does not know (or the
// caller may not see): the plugin answers 400 AsyncQueryNotFoundException.
type asyncNotFoundError struct{ id string }

func (e *asyncNotFoundError) Error() string { return fmt.Sprintf("QueryId: %s not found", e.id) }
