package ingest

// DictKeysOff turns the records' DictKey off, for tests that compare a
// run with it to one without.
func DictKeysOff(off bool) { dictKeysOff = off }
