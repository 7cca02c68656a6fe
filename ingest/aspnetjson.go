package ingest

import (
	"bytes"
	"fmt"
	"slices"
)

// ASP.NET Core logs a request at Information twice when both its Hosting
// layer and the HttpLogging middleware are on: Hosting's "Request
// finished" (Microsoft.AspNetCore.Hosting.Diagnostics, event 2, written
// for every request: dotnet/aspnetcore
// src/Hosting/Hosting/src/Internal/HostingApplicationDiagnostics.cs) and
// HttpLogging's combined "Request and Response" (event 9,
// src/Middleware/HttpLogging/src/HttpLoggingMiddleware.cs). The JSON
// console formatter writes both, and each request was counted twice. A
// file whose first records hold both has its requests read from
// Hosting's events alone: they carry the status and the elapsed time in
// every configuration, HttpLogging's the duration only when
// HttpLoggingFields.Duration is logged.

const (
	aspnetFinished = "Request finished "
	aspnetCombined = "Request and Response:"
)

// aspnetBoth reports whether the JSON lines of head hold both an event
// of Hosting's "Request finished" and one of HttpLogging's "Request and
// Response" (their Message).
func aspnetBoth(head []byte) bool {
	var finished, combined bool
	for len(head) > 0 && !(finished && combined) {
		line, rest, _ := bytes.Cut(head, []byte("\n"))
		head = rest
		msg := jsonValue(line, "Message")
		if len(msg) < 2 || msg[0] != '"' {
			continue
		}
		msg = msg[1:]
		finished = finished || bytes.HasPrefix(msg, []byte(aspnetFinished))
		combined = combined || bytes.HasPrefix(msg, []byte(aspnetCombined))
	}
	return finished && combined
}

// aspnetTwice is the aspnetcore source's twice: a file whose first lines
// hold both Hosting's and HttpLogging's events of its requests (aspnetBoth)
// is read by Hosting's alone.
func aspnetTwice(head []byte) []string {
	if aspnetBoth(head) {
		return []string{aspnetFinished + "*"}
	}
	return nil
}

// withRequests returns s, of a source, with only the records of kinds
// read as requests (source.requests): built once per schema and shared.
func (s *Schema) withRequests(kinds []string) *Schema {
	src := s.source
	if src == nil {
		return s
	}
	key := fmt.Sprintf("%p\x00requests\x00%q", s, kinds)
	return s.cached(key, func(*Schema) *Schema {
		v := *src
		v.requests = slices.Clone(kinds)
		return build(s.maps, &v, s.client)
	})
}
