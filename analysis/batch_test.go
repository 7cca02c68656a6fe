package analysis

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/ingest"
)

// oneByOne is an accumulator that takes records one at a time: the
// pipeline gives it each as it is read. (Embedded, the accumulator's
// AddBatch would make it a BatchSink.)
type oneByOne struct{ acc *aggregate.Accumulator }

func (o oneByOne) Add(r *ingest.Record) { o.acc.Add(r) }

// batchHostile are values whose reading makes text of the parser's own
// (unescaped): a record of a batch points into it while the lines after
// it are read.
var batchHostile = []string{`quo"ted`, `back\slash`, `a,b "c"`, "tab\there", `\x22x\x5c`, "é-ü"}

// TestBatchesAddAsRecords checks that an accumulator given the records
// a batch at a time (ingest.BatchSink) ends as one given them one at a
// time: the same bytes of every table and collector, for every format,
// with escaped values the parsers unescape into buffers of their own,
// with a --since/--until window and with hours kept.
func TestBatchesAddAsRecords(t *testing.T) {
	dir := t.TempDir()
	reqs := gen.Generate(gen.Config{Seed: 9, N: 3000, Duration: 20 * time.Minute})
	for i := range reqs {
		if i%5 == 0 {
			h := batchHostile[i%len(batchHostile)]
			reqs[i].Model, reqs[i].AppID, reqs[i].UserAgent = h+"-m", h+"-a", h
		}
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gened := func(name string, w func(*bytes.Buffer) error) string {
		var b bytes.Buffer
		if err := w(&b); err != nil {
			t.Fatal(err)
		}
		return write(name, b.Bytes())
	}
	opts := gen.WriteOptions{BadEvery: 97}
	jsonl := gened("a.jsonl", func(b *bytes.Buffer) error { _, err := gen.WriteJSONL(b, reqs, opts); return err })
	var data bytes.Buffer
	if _, err := gen.WriteJSONL(&data, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var doc bytes.Buffer
	doc.WriteString("[\n")
	for i, l := range bytes.Split(bytes.TrimSpace(data.Bytes()), []byte("\n")) {
		if i > 0 {
			doc.WriteString(",\n")
		}
		doc.Write(l)
	}
	doc.WriteString("\n]\n")
	var csv, nginx, ltsv strings.Builder
	csv.WriteString("time,app_id,model,region,status,request_time,uri\n")
	for i := range reqs {
		r := &reqs[i]
		at := r.Time.Format(time.RFC3339Nano)
		fmt.Fprintf(&csv, "%s,\"%s\",\"%s\",%s,%d,%.3f,%s\n", at, strings.ReplaceAll(r.AppID, `"`, `""`),
			strings.ReplaceAll(r.Model, `"`, `""`), r.Region, r.Status, r.RequestTime, r.URI)
		esc := strings.NewReplacer(`"`, `\x22`, `\`, `\x5C`, " ", `\x20`, "\t", `\x09`).Replace
		fmt.Fprintf(&nginx, "%s - %s [%s] \"POST %s HTTP/1.1\" %d 10 \"-\" \"%s\" rt=%.3f model=%s region=%s\n",
			r.RemoteAddr, esc(r.AppID), r.Time.Format("02/Jan/2006:15:04:05 -0700"), r.URI, r.Status, esc(r.UserAgent),
			r.RequestTime, esc(r.Model), r.Region)
		fmt.Fprintf(&ltsv, "time:%s\tapp_id:%s\tmodel:%s\tstatus:%d\treqtime:%.3f\turi:%s\n", at, esc(r.AppID), esc(r.Model),
			r.Status, r.RequestTime, r.URI)
	}
	// Lines whose unescaped text passes what a parser holds for a batch
	// (heldMax), which then goes to the accumulator early.
	var long strings.Builder
	for i := range 40 {
		r := &reqs[i*60]
		ua := strings.Repeat(`a\"`, 40_000+i)
		fmt.Fprintf(&long, `{"time":%q,"model":"m\"%d","status":%d,"request_time":%.3f,"http_user_agent":"%s"}`+"\n",
			r.Time.Format(time.RFC3339Nano), i%7, r.Status, r.RequestTime, ua)
	}
	// Hours interleaved within batches, more of them than are kept
	// (aggregate.MaxHours), and records of hours dropped by then.
	hourly := gen.Generate(gen.Config{Seed: 11, N: 3000, Duration: 30 * time.Hour})
	for i := 0; i+40 < len(hourly); i += 7 {
		hourly[i], hourly[i+40] = hourly[i+40], hourly[i]
	}
	hourly = append(hourly, hourly[:50]...)
	hours := gened("hours.jsonl", func(b *bytes.Buffer) error { _, err := gen.WriteJSONL(b, hourly, gen.WriteOptions{}); return err })
	paths := []string{
		jsonl,
		hours,
		write("long.jsonl", []byte(long.String())),
		write("d.json", doc.Bytes()),
		write("c.csv", []byte(csv.String())),
		write("n.log", []byte(nginx.String())),
		write("l.ltsv", []byte(ltsv.String())),
		gened("p.parquet", func(b *bytes.Buffer) error { _, err := gen.WriteParquet(b, reqs, gen.WriteOptions{}); return err }),
	}
	formats := map[string][]string{"n.log": {"$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent \"$http_referer\" \"$http_user_agent\" rt=$request_time model=$model region=$region"}}
	since, until := reqs[400].Time, reqs[2500].Time
	for _, path := range paths {
		for _, c := range []struct {
			name   string
			window bool
			hourly bool
		}{{"whole", false, false}, {"window", true, false}, {"hours", false, true}} {
			t.Run(filepath.Base(path)+"/"+c.name, func(t *testing.T) {
				cfg := Config{}
				rcfg, m, err := settings(cfg.Rules, &cfg.Top, &cfg.Accuracy)
				if err != nil {
					t.Fatal(err)
				}
				if c.window {
					cfg.Since, cfg.Until = &since, &until
				}
				run := func(batches bool) ([]byte, int64) {
					o := aggregateOptions(cfg, m, rcfg)
					o.Collectors = rcfg.SharedCollectors(m, cfg.Top, c.hourly)
					if c.hourly {
						o.Hourly, o.HourCollectors = true, rcfg.Collectors(m, cfg.Top, false)
					}
					in := ingest.Options{Workers: 1, Location: time.UTC, LogFormats: formats[filepath.Base(path)]}
					var acc *aggregate.Accumulator
					if batches {
						_, _, err = ingest.Run([]string{path}, in, func() *aggregate.Accumulator { acc = aggregate.New(o); return acc })
					} else {
						_, _, err = ingest.Run([]string{path}, in, func() oneByOne { acc = aggregate.New(o); return oneByOne{acc} })
					}
					if err != nil {
						t.Fatal(err)
					}
					b, n := acc.AppendBinary(nil), acc.Records
					for _, h := range acc.SortedHours() {
						b, n = acc.Hours[h].AppendBinary(b), n+acc.Hours[h].Records
					}
					return b, n
				}
				batched, n := run(true)
				single, n1 := run(false)
				if n == 0 || n != n1 {
					t.Fatalf("%d records added in batches, %d one at a time", n, n1)
				}
				if !bytes.Equal(batched, single) {
					t.Errorf("the accumulator given batches differs from the one given records one at a time (%d, %d bytes)", len(batched), len(single))
				}
			})
		}
	}
}
