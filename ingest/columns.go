package ingest

import "time"

// A line format of fixed named columns (Gin's, tracing's) reads each
// column with its own bindings unless --map names it.

// columnBindings sets binds[i] to what --map binds names[i] to, else to
// own[i], and reports whether --map names column named.
func columnBindings(s *Schema, names []string, own, binds []Bindings, named int) bool {
	mappedNamed := false
	for i, name := range names {
		binds[i] = own[i]
		if bs := s.LookupString(name); mapped(bs) {
			binds[i] = bs
			mappedNamed = mappedNamed || i == named
		}
	}
	return mappedNamed
}

// setColumns sets r's fields from the columns' values, each with its
// bindings; an empty value or an unbound column sets nothing.
func setColumns(r *Record, binds []Bindings, vals [][]byte, loc *time.Location) error {
	for i, v := range vals {
		if len(binds[i]) == 0 || len(v) == 0 {
			continue
		}
		if err := r.Set(binds[i], v, loc); err != nil {
			return err
		}
	}
	return nil
}
