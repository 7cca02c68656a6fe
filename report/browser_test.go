package report

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"loganalyze/aggregate"
)

const chromiumPath = "/usr/bin/chromium"

// TestHTMLInBrowser loads the HTML report of the 3,000-line sample in
// headless Chromium: it renders, its charts are there, nothing logs an
// error, nothing leaves the page, and clicking a header sorts a table.
// The screenshot goes to $LOGANALYZE_SCREENSHOT, else a temporary dir.
func TestHTMLInBrowser(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("no browser at %s (apt-get install chromium): %v", chromiumPath, err)
	}
	sample := filepath.Join(sharedDir(t), "examples", "tokenhub-sample.jsonl")
	r := buildFrom(t, nil, []string{sample}, 2, 1000, sampleFindings())
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, render(t, r, "html"), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + page

	opts := append([]chromedp.ExecAllocatorOption{},
		chromedp.ExecPath(chromiumPath),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.WindowSize(1280, 1800),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	defer cancelTimeout()

	// Open the tab first, so that the listener sees every event of the
	// page load.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("cannot start %s: %v", chromiumPath, err)
	}
	var mu sync.Mutex
	var requests, problems []string
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, ev.Request.URL)
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+ev.ExceptionDetails.Text)
		case *runtime.EventConsoleAPICalled:
			switch ev.Type {
			case runtime.ConsoleAPICalledTypeError, runtime.ConsoleAPICalledTypeWarning, runtime.ConsoleAPICalledTypeAssert:
				problems = append(problems, "console "+string(ev.Type))
			}
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError || ev.Entry.Level == cdplog.EntryLevelWarning {
				problems = append(problems, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}

	table := `#m-request_time table[data-dim="model"]`
	firstColumn := `Array.from(document.querySelector('` + table + `').tBodies[0].rows).map(r => r.cells[0].textContent)`
	p99Head := chromedp.CSS(table + ` thead th:nth-child(5)`)
	keyHead := chromedp.CSS(table + ` thead th:nth-child(1)`)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#verdict`))); err != nil {
		t.Fatalf("cannot load %s: %v", url, err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("browser: %v", err)
		}
	}
	title, err := chromedp.Run(ctx, chromedp.Title())
	must(err)
	charts, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('svg.chart').length`))
	must(err)
	findings, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('article.finding').length`))
	must(err)
	before, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](firstColumn))
	must(err)
	must(chromedp.Do(ctx, chromedp.Click(p99Head)))
	after, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](firstColumn))
	must(err)
	sortState, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+table+` thead th:nth-child(5)').getAttribute('aria-sort')`))
	must(err)
	must(chromedp.Do(ctx, chromedp.Click(keyHead)))
	again, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](firstColumn))
	must(err)
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100 gives a PNG
	must(err)
	shotPath := os.Getenv("LOGANALYZE_SCREENSHOT")
	if shotPath == "" {
		shotPath = filepath.Join(t.TempDir(), "report.png")
	}
	if err := os.WriteFile(shotPath, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", shotPath, len(shot))

	if !strings.Contains(title, "loganalyze") {
		t.Errorf("title %q", title)
	}
	// Two time charts and one histogram per metric with values.
	wantCharts := 2
	for _, h := range r.Histograms {
		if len(h.Bins) > 0 {
			wantCharts++
		}
	}
	if charts != wantCharts {
		t.Errorf("%d SVG charts, want %d", charts, wantCharts)
	}
	if findings != len(r.Findings) {
		t.Errorf("%d findings shown, want %d", findings, len(r.Findings))
	}

	// The table starts in the report's order (count, largest first);
	// one click on p99 sorts by p99, largest first; a click on key sorts
	// by name.
	rows := r.Latency[aggregate.RequestTime].By[aggregate.DimModel].Rows
	rows = rows[:min(TableKeys, len(rows))]
	var inOrder []string
	for _, q := range rows {
		inOrder = append(inOrder, q.Key)
	}
	byP99 := slices.Clone(rows)
	sort.SliceStable(byP99, func(i, j int) bool { return byP99[i].P99 > byP99[j].P99 })
	var wantAfter []string
	for _, q := range byP99 {
		wantAfter = append(wantAfter, q.Key)
	}
	byName := slices.Clone(inOrder)
	sort.Strings(byName)
	if !slices.Equal(before, inOrder) {
		t.Errorf("before sorting: %q, want %q", before, inOrder)
	}
	if !slices.Equal(after, wantAfter) || slices.Equal(after, before) {
		t.Errorf("after clicking p99: %q, want %q (and a change from %q)", after, wantAfter, before)
	}
	if sortState != "descending" {
		t.Errorf("p99 header aria-sort %q, want descending", sortState)
	}
	if !slices.Equal(again, byName) {
		t.Errorf("after clicking key: %q, want %q", again, byName)
	}

	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("console errors or exceptions: %q", problems)
	}
	if len(requests) == 0 {
		t.Fatalf("no network events seen: the listener is not working")
	}
	for _, u := range requests {
		if u != url && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page requested %q", u)
		}
	}
}
