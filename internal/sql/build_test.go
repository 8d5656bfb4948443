package sql

import (
	"reflect"
	"testing"
)

// noPos zeroes every Pos in a tree, so that a built tree (no positions)
// and a parsed one compare by shape alone.
func noPos(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			noPos(v.Elem())
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			noPos(v.Index(i))
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(Pos{}) {
			if v.CanSet() {
				v.Set(reflect.Zero(v.Type()))
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			noPos(v.Field(i))
		}
	}
}

// TestBuiltQueries: each built query prints as the SQL it stands for,
// and that SQL parses back to the same tree.
func TestBuiltQueries(t *testing.T) {
	where, err := ParseExpr("status >= 500")
	if err != nil {
		t.Fatal(err)
	}
	covering := NewSelect(TableRef("default.logs"), Item(Col("status")), Item(Col("select")))
	covering.Where = where
	id, _ := ParseExpr("concat(host, '-', ts)")
	for _, tc := range []struct {
		q    *Query
		want string
	}{
		{NewQuery(NewSelect(TableRef("default.logs"), AllColumns())), "SELECT * FROM default.logs"},
		{NewQuery(covering), "SELECT status, `select` FROM default.logs WHERE status >= 500"},
		{NewQuery(NewSelect(TableRef("t"), Alias(Col("_file"), "file_path"), Item(Col("a b")))),
			"SELECT _file AS file_path, `a b` FROM t"},
		{NewQuery(NewSelect(TableRef("t"), Item(CountAll()), Item(NewCall("approx_count_distinct", Col("x"))))),
			"SELECT count(*), approx_count_distinct(x) FROM t"},
		{NewQuery(NewSelect(SubqueryFrom(NewQuery(NewSelect(TableRef("t"), AllColumns())), "__mv"), AllColumns(), Alias(id, "__id"))),
			"SELECT *, concat(host, '-', ts) AS __id FROM (SELECT * FROM t) AS __mv"},
	} {
		got := tc.q.String()
		if got != tc.want {
			t.Errorf("built query prints %q, want %q", got, tc.want)
			continue
		}
		st, err := ParseOne(got)
		if err != nil {
			t.Errorf("%s: %v", got, err)
			continue
		}
		parsed := st.(*SelectStmt).Query
		built := tc.q
		noPos(reflect.ValueOf(parsed))
		noPos(reflect.ValueOf(built))
		if !reflect.DeepEqual(parsed, built) {
			t.Errorf("%s: parsed back to %#v, built %#v", got, parsed.Body, built.Body)
		}
	}
}
