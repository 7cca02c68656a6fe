package ingest

import (
	"math"
	"slices"
	"time"
)

// Apache's %D is the time taken in microseconds (httpd's mod_log_config:
// "The time taken to serve the request, in microseconds"), and
// apacheDirectives reads it so. Servers in Java that take Apache's
// syntax write it in milliseconds:
//
//   - Quarkus (quarkusio/quarkus docs/src/main/asciidoc/http-reference.adoc:
//     "%D Time taken to process the request, in millis"),
//   - Undertow and WildFly (undertow-io/undertow core/src/main/java/io/
//     undertow/attribute/ResponseTimeAttribute.java, RESPONSE_TIME_MILLIS_SHORT
//     "%D"),
//   - Micronaut (micronaut-projects/micronaut-core http-server-netty/src/
//     main/java/io/micronaut/http/server/netty/handler/accesslog/element/
//     ElapseTimeElement.java, ELAPSE_TIME_MILLIS "D", NANOSECONDS.toMillis),
//   - logback-access (qos-ch/logback logback-access PatternLayout.java,
//     "D" ElapsedTimeConverter; IAccessEvent.getElapsedTime "in
//     milliseconds"),
//   - Tomcat before 10 (its AccessLogValve, README).
//
// The line does not say which wrote it (unless a logger's prefix does:
// Quarkus's, nginx_formats.go), nor in general do the values: a file's
// records are kept as read, and what its first values were like is kept
// for the report (FileStats.MicroD), which names the flag that reads
// them in ms when their median is one no HTTP request through a gateway
// lasts in µs.

// microD reports whether t, bound as bind, is an Apache %D read as
// request_time in µs: the directive's own unit, not a --map's.
func microD(t formatToken, bind Bindings) bool {
	if !t.apache || t.name != "D" {
		return false
	}
	for _, b := range bind {
		if b.Field == FRequestTime && b.Unit == UnitMicro && b.Prio != prioMapped {
			return true
		}
	}
	return false
}

// microDMagnitude returns what the request times f reads from the first
// lines of head (maxUnitValues of them, a server's own lines left out)
// were like, in µs as %D writes them.
func microDMagnitude(f *logFormat, head []byte) Magnitude {
	p := &nginxParser{f: f, loc: time.UTC}
	var rec Record
	var xs []float64
	whole := true
	for _, l := range slices.DeleteFunc(headLines(head, maxUnitValues), ownLogLine) {
		rec.Reset()
		if _, err := p.parse(l, &rec); err != nil {
			continue
		}
		v, ok := rec.Float(FRequestTime)
		if !ok {
			continue
		}
		us := v * 1e6 // back to the number written
		if r := math.Round(us); math.Abs(us-r) < 1e-6*max(1, us) {
			us = r // a whole number, as %D writes it, but for float error
		}
		xs = append(xs, us)
		whole = whole && us == math.Trunc(us)
	}
	if len(xs) == 0 {
		return Magnitude{}
	}
	slices.Sort(xs)
	return Magnitude{N: len(xs), Median: xs[len(xs)/2], Whole: whole}
}
