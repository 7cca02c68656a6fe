package ingest_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestCloudWatchTextFilter: aws logs filter-log-events --output text,
// an event a row "EVENTS eventId ingestionTime logStreamName message
// timestamp" (awscli/text.py: the keys sorted), read by its message,
// nginx lines here; its searched streams' rows and the token to go on
// with are no records and no bad lines; an event whose message is no
// line of the format is a bad line.
func TestCloudWatchTextFilter(t *testing.T) {
	const path = "testdata/text/cloudwatch-filter-text.txt"
	var want []row
	events := 0
	for _, l := range fileLines(t, path) {
		f := strings.Split(l, "\t")
		if f[0] != "EVENTS" {
			continue
		}
		events++
		if at, status, rt, ok := nginxTruth(f[4]); ok {
			want = append(want, row{timeNS: at.UnixNano(), status: status, rt: rt})
		}
	}
	checkUnwrappedNginx(t, path, ingest.EnvCloudWatchText, want, events-len(want))
}

// TestCloudWatchTextGet: aws logs get-log-events --output text, its
// tokens first, an event a row "EVENTS ingestionTime message timestamp":
// a JSON line of no time of its own takes the event's timestamp (epoch
// ms); one with its own keeps it; a tab within a message is kept.
func TestCloudWatchTextGet(t *testing.T) {
	const path = "testdata/text/cloudwatch-get-text.txt"
	type line struct {
		Time        string  `json:"time_iso8601"`
		Status      int64   `json:"status"`
		RequestTime float64 `json:"request_time"`
		Model       string  `json:"model"`
	}
	var want []row
	for _, l := range fileLines(t, path) {
		f := strings.Split(l, "\t")
		if f[0] != "EVENTS" {
			continue
		}
		var m line
		if err := json.Unmarshal([]byte(strings.Join(f[2:len(f)-1], "\t")), &m); err != nil {
			t.Fatal(err)
		}
		ms, err := strconv.ParseInt(f[len(f)-1], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		at := time.UnixMilli(ms)
		if m.Time != "" {
			if at, err = time.Parse(time.RFC3339, m.Time); err != nil {
				t.Fatal(err)
			}
		}
		want = append(want, row{timeNS: at.UnixNano(), status: m.Status, rt: m.RequestTime, model: m.Model})
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if f := res.Files[0]; f.Envelope != ingest.EnvCloudWatchText || f.Format != ingest.JSONL || len(got) != len(want) || res.BadLines() != 0 {
		t.Fatalf("read as %q %s: %d records, %d bad; want cloudwatch-text jsonl, %d, 0: %v", f.Envelope, f.Format, len(got), res.BadLines(), len(want), res.Problems)
	}
	sameRows(t, got, want, true)
}

// cliText returns lines as the AWS CLI's text output of log events
// writes them: filter-log-events' rows (pages of 7 events, each followed
// by its searched streams' rows, and the token to go on with; first the
// answer's own token when noPaginate), or get-log-events' (its tokens
// first) when get.
func cliText(lines []string, get, noPaginate bool) []byte {
	var b strings.Builder
	if get {
		b.WriteString("b/37516444111055343347641349063442428475868536476094283776/s\tf/37516444186012345347641349063442428475868536476094283778/s\n")
	}
	if noPaginate {
		b.WriteString("AYADeHZ3eXl6RmFrZVRva2VuAAEAB2F3cy1rbXM=\n")
	}
	for i, l := range lines {
		ts := time.Date(2026, 12, 4, 2, 0, 0, 0, time.UTC).UnixMilli() + int64(i)*1000
		if get {
			fmt.Fprintf(&b, "EVENTS\t%d\t%s\t%d\n", ts+250, l, ts)
			continue
		}
		fmt.Fprintf(&b, "EVENTS\t%056d\t%d\tgw-1/i-0abc\t%s\t%d\n", i, ts+250, l, ts)
		if i%7 == 6 || i == len(lines)-1 {
			b.WriteString("SEARCHEDLOGSTREAMS\tgw-1/i-0abc\tTrue\n")
		}
	}
	if !get && !noPaginate {
		b.WriteString("NEXTTOKEN\teyJuZXh0VG9rZW4iOiBudWxsfQ==\n")
	}
	return []byte(b.String())
}

// TestCloudWatchTextAsLines: lines of any format, JSON or text, in the
// AWS CLI's text output of filter-log-events (paginated, and with
// --no-paginate) and of get-log-events, read as the lines alone.
func TestCloudWatchTextAsLines(t *testing.T) {
	dir := t.TempDir()
	for _, src := range lineSamples {
		name := filepath.Base(src)
		lines := fileLines(t, src)
		checkAsLines(t, src, ingest.EnvCloudWatchText, map[string][]byte{
			filepath.Join(dir, "filter-"+name+".txt"):     cliText(lines, false, false),
			filepath.Join(dir, "nopaginate-"+name+".txt"): cliText(lines, false, true),
			filepath.Join(dir, "get-"+name+".txt"):        cliText(lines, true, false),
		})
	}
}

// TestCloudWatchTextLookAlikes: rows that only look like the AWS CLI's
// are not read as its output: an "EVENTS" row of no timestamp, or of
// fields that are no numbers, a file of one word a line.
func TestCloudWatchTextLookAlikes(t *testing.T) {
	for _, text := range []string{
		"EVENTS\tall\tgood\n",
		"EVENTS\t1796349601000\tx\tnot-a-time\n",
		"EVENTS\tid-1\t1796349601000\tgw\tx\t1796349601000\n",
		"hello\nworld\n",
	} {
		_, res := collect(t, []string{writeTemp(t, "x.txt", text)}, ingest.Options{Workers: 1, Location: time.UTC})
		if f := res.Files[0]; f.Envelope == ingest.EnvCloudWatchText {
			t.Errorf("%q read as the AWS CLI's text output", text)
		}
	}
}
