package catalog

import "sort"

func sortTables(ts []tableJSON) {
	sort.Slice(ts, func(i, j int) bool { return key(ts[i].Name) < key(ts[j].Name) })
}

func sortObjects(os []*Object) {
	sort.Slice(os, func(i, j int) bool { return key(os[i].Name) < key(os[j].Name) })
}
