package ingest

import (
	"bytes"
	"time"
)

// Azure Monitor's Container Insights keeps every line an AKS container
// wrote on stdout or stderr as a row of the Log Analytics table
// ContainerLogV2 (learn.microsoft.com/azure/azure-monitor/reference/
// tables/containerlogv2): TimeGenerated (UTC), Computer, ContainerId,
// ContainerName, PodName, PodNamespace, LogSource (stdout or stderr),
// LogLevel, and the line in LogMessage, a dynamic column: the line's
// text, or, for a JSON line, the object parsed from it. The older table
// ContainerLog (…/reference/tables/containerlog) holds the line in
// LogEntry, a string, beside LogEntrySource, ContainerID, Image and Name.
//
// The Log Analytics query API answers {"tables":[{"name":…,"columns":
// [{"name":…,"type":…},…],"rows":[[…],…]}]}
// (learn.microsoft.com/azure/azure-monitor/logs/api/response-format),
// each row handed on as the object of its columns (tableObject); it
// writes a dynamic value as the JSON text of it, a string
// (MicrosoftDocs/azure-docs articles/azure-monitor/log-query/
// json-data-structures.md: such objects "are represented as JSON
// strings"), and a client that decodes it puts the object itself there:
// either is read. The portal's "Export to CSV" of the same rows is
// csv-raw's (rawCSVHeader).

//
// Azure Container Apps keeps its containers' lines in the table
// ContainerAppConsoleLogs (learn.microsoft.com/azure/azure-monitor/
// reference/tables/containerappconsolelogs: the line in Log, a string,
// beside ContainerAppName, RevisionName, ContainerName, Stream,
// TimeGenerated), or, where the environment sends its logs to Log
// Analytics the older way, in the custom table ContainerAppConsoleLogs_CL,
// each column named with its type's suffix (Log_s, ContainerAppName_s,
// RevisionName_s, Stream_s). Log is a name any table may have: such a
// row's line is read only beside its app's or revision's name. App
// Service keeps its apps' stdout in AppServiceConsoleLogs (…/reference/
// tables/appserviceconsolelogs: the line in ResultDescription, beside
// Host, Level, ContainerId, TimeGenerated); a ResultDescription is read
// as the line only beside ContainerId, as that table has it.

// azureContainerKeys are the columns of a ContainerLogV2 or ContainerLog
// row read: the line (LogMessage, LogEntry), its time, and those of
// which one marks the row as the table's; then a Container Apps row's
// line (Log, Log_s) and its marks (azureAppMarks).
var azureContainerKeys = []string{"LogMessage", "LogEntry", "TimeGenerated",
	"LogSource", "LogEntrySource", "ContainerId", "ContainerID", "ContainerName", "PodName", "PodNamespace",
	"Log", "Log_s", "ContainerAppName", "ContainerAppName_s", "RevisionName", "RevisionName_s", "ResultDescription"}

// azureAppMarks are the bits of azureContainerKeys' Container Apps
// columns of an app's or a revision's name.
const azureAppMarks = 1<<12 | 1<<13 | 1<<14 | 1<<15

// azureContainerRow returns the line a ContainerLogV2 row holds in its
// LogMessage (its text decoded into d's scratch buffer, or the text of
// the object a JSON line was parsed into), or a ContainerLog row in its
// LogEntry, without its line end, and the row's TimeGenerated in epoch
// ns (0 when it has none); ok false for any other element: a row of
// neither column beside TimeGenerated or one of the tables' own
// columns.
func (d *topReader) azureContainerRow(elem []byte) (line []byte, ns int64, ok bool) {
	var vals [17][]byte
	found, strs, err := d.top(elem, azureContainerKeys, vals[:])
	if err != nil || found&^3 == 0 {
		return nil, 0, false
	}
	switch {
	case strs&1 != 0:
		line = vals[0]
	case d.objs[0] != nil:
		line = d.objs[0]
	case found&1 == 0 && strs&2 != 0:
		line = vals[1]
	case found&3 == 0 && found&azureAppMarks != 0 && strs&(1<<10) != 0:
		line = vals[10]
	case found&3 == 0 && found&azureAppMarks != 0 && strs&(1<<11) != 0:
		line = vals[11]
	case found&3 == 0 && found&(1<<5) != 0 && strs&(1<<16) != 0: // App Service's, beside its ContainerId
		line = vals[16]
	default:
		return nil, 0, false
	}
	if strs&4 != 0 {
		if t, ok := parseTime(vals[2], 0, time.UTC); ok {
			ns = t
		}
	}
	return bytes.TrimRight(line, "\r\n"), ns, true
}

// azureContainerRows reports whether the rows whose first is first (an
// object of their columns) hold a container's lines (azureContainerRow):
// unless a column beside the line is one s, or a source, reads as the
// request time (a query that projected fields parsed from the lines,
// which the rows are then read by), as Insights' results (insightsRows).
func azureContainerRows(first []byte, s *Schema) bool {
	if _, _, ok := new(topReader).azureContainerRow(first); !ok {
		return false
	}
	return !givesRequestTime(first, s)
}
