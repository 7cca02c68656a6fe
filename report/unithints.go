package report

import (
	"path/filepath"
	"strconv"

	"loganalyze/ingest"
)

// maxMicroDMedian is the median, in µs as written, below which a file's
// Apache %D (ingest.FileStats.MicroD) is taken for milliseconds: 10 ms.
// A request through a gateway to a model takes hundreds of ms and more,
// and its %D in ms a few hundred to thousands; read as µs, a median of
// 778 (the probe's Quarkus log: 778 ms) becomes 0.8 ms, which no such
// request lasts. Of Apache's own µs, a median under 10 ms is a log of
// health checks and static files, not of such requests. The values
// alone do not tell the unit: this says which it most likely is.
const maxMicroDMedian = 10_000

// minMicroDValues is how many of a file's first %D values tell their
// median, as many as tell a JSON duration's unit (nodata.go).
const minMicroDValues = 3

// unitHints are the flags that may read a file's request times in the
// unit they are written in, when records were read with a unit they are
// most likely not in: an Apache LogFormat's %D, read as µs as Apache
// writes it, whose median no request lasts in µs; Quarkus, Undertow
// (WildFly), Micronaut, logback-access and Tomcat before 10 write it in
// ms (ingest/apacheunit.go).
func unitHints(files []ingest.FileStats) []Hint {
	for _, f := range files {
		m := f.MicroD
		if f.Records == 0 || m.N < minMicroDValues || m.Median >= maxMicroDMedian {
			continue
		}
		return []Hint{newHint("--map "+MissingField+"="+MissingField+":ms", "hint.msD",
			filepath.Base(f.Path), strconv.FormatFloat(m.Median, 'f', -1, 64), strconv.FormatFloat(m.Median/1000, 'f', -1, 64))}
	}
	return nil
}
