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

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"loganalyze/aggregate"
	"loganalyze/rules"
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
	page := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(page, render(t, r, "html"), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + page

	ctx, events := openBrowser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#verdict`))); err != nil {
		t.Fatalf("cannot load %s: %v", url, err)
	}
	t.Run("renders", func(t *testing.T) { checkRendered(ctx, t, r) })
	t.Run("sorts", func(t *testing.T) { checkSorting(ctx, t, r) })
	saveScreenshot(ctx, t)
	events.check(t, url)
}

// TestHTMLInBrowserChinese loads the zh-CN HTML reports in headless
// Chromium: the sample's shows its verdict and finding titles in
// Chinese, and the report of hostile log text shows that text without
// running any of it.
func TestHTMLInBrowserChinese(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("no browser at %s (apt-get install chromium): %v", chromiumPath, err)
	}
	sample := filepath.Join(sharedDir(t), "examples", "tokenhub-sample.jsonl")
	r := buildFrom(t, nil, []string{sample}, 2, 1000, sampleFindings())
	ctx, events := openBrowser(t)
	// Every alert, confirm or prompt the page calls is counted instead
	// of opening a dialog.
	_, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (page.AddScriptToEvaluateOnNewDocumentResult, error) {
		return cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `window.__calls = 0;
window.alert = window.confirm = window.prompt = function () { window.__calls++; };`})
	})
	mustBrowser(t, err)

	t.Run("sample", func(t *testing.T) {
		url := writePage(t, renderIn(t, r, "html", LangZhCN))
		if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#verdict`))); err != nil {
			t.Fatalf("cannot load %s: %v", url, err)
		}
		lang, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`))
		mustBrowser(t, err)
		verdict, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#verdict .verdict').textContent`))
		mustBrowser(t, err)
		titles, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('article.finding h3')).map(h => h.textContent)`))
		mustBrowser(t, err)
		heading, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#findings h2').textContent`))
		mustBrowser(t, err)
		if lang != "zh-CN" {
			t.Errorf("<html lang=%q>, want zh-CN", lang)
		}
		want := map[rules.Severity]string{rules.OK: "正常", rules.Warn: "警告", rules.Crit: "严重"}[r.Verdict]
		if verdict != want {
			t.Errorf("verdict %q, want %q", verdict, want)
		}
		if heading != "发现的问题" {
			t.Errorf("findings heading %q", heading)
		}
		if len(titles) != len(r.Findings) {
			t.Fatalf("%d findings shown, want %d", len(titles), len(r.Findings))
		}
		storm := map[string]string{"rate_limit_storm": "出现 HTTP 429 限流风暴", "missing_keepalive": "的大多数请求都新建连接（未启用长连接）"}
		for i, f := range r.Findings {
			if !strings.Contains(titles[i], storm[f.Rule]) || strings.Contains(titles[i], f.Title) {
				t.Errorf("finding %d (%s) shows %q, want the Chinese title (with %q)", i+1, f.Rule, titles[i], storm[f.Rule])
			}
		}
		checkSorting(ctx, t, r)
		saveScreenshot(ctx, t)
	})

	t.Run("hostile", func(t *testing.T) {
		url := writePage(t, renderIn(t, hostileReport(t), "html", LangZhCN))
		if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#verdict`))); err != nil {
			t.Fatalf("cannot load %s: %v", url, err)
		}
		// Give an onerror handler the time to fire, were there one.
		mustBrowser(t, chromedp.Do(ctx, chromedp.Sleep(200*time.Millisecond)))
		calls, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__calls`))
		mustBrowser(t, err)
		scripts, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.scripts.length`))
		mustBrowser(t, err)
		imgs, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.images.length`))
		mustBrowser(t, err)
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		mustBrowser(t, err)
		if calls != 0 || scripts != 1 || imgs != 0 {
			t.Errorf("hostile text ran: %d alert calls, %d scripts (want the report's 1), %d images", calls, scripts, imgs)
		}
		for _, s := range []string{"<script>alert(1)</script> × <script>alert(1)</script> 出现 HTTP 429 限流风暴", `"><img src=x onerror=alert(1)>`} {
			if !strings.Contains(text, s) {
				t.Errorf("the page does not show %q as text", s)
			}
		}
	})
	events.checkProblems(t)
}

// writePage writes an HTML report to a temporary file and returns its
// file URL.
func writePage(t *testing.T, html []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, html, 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + path
}

// checkProblems fails the test on any error the pages logged and on any
// request for something other than a file or inline data.
func (ev *pageEvents) checkProblems(t *testing.T) {
	t.Helper()
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if len(ev.problems) > 0 {
		t.Errorf("console errors or exceptions: %q", ev.problems)
	}
	for _, u := range ev.requests {
		if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page requested %q", u)
		}
	}
}

// pageEvents records what a page asked from the network and what it
// logged as an error, an exception or a warning.
type pageEvents struct {
	mu                 sync.Mutex
	requests, problems []string
}

// openBrowser starts headless Chromium with one tab and listens to the
// tab's events; the browser stops when the test ends.
func openBrowser(t *testing.T) (context.Context, *pageEvents) {
	t.Helper()
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
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelTimeout)

	// Open the tab first, so that the listener sees every event of the
	// page load.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("cannot start %s: %v", chromiumPath, err)
	}
	ev := &pageEvents{}
	err := chromedp.Listen(ctx, func(e any) {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		switch e := e.(type) {
		case *network.EventRequestWillBeSent:
			ev.requests = append(ev.requests, e.Request.URL)
		case *runtime.EventExceptionThrown:
			ev.problems = append(ev.problems, "exception: "+e.ExceptionDetails.Text)
		case *runtime.EventConsoleAPICalled:
			switch e.Type {
			case runtime.ConsoleAPICalledTypeError, runtime.ConsoleAPICalledTypeWarning, runtime.ConsoleAPICalledTypeAssert:
				ev.problems = append(ev.problems, "console "+string(e.Type))
			}
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError || e.Entry.Level == cdplog.EntryLevelWarning {
				ev.problems = append(ev.problems, "log: "+e.Entry.Text+" "+e.Entry.URL)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return ctx, ev
}

// check fails the test on any error the page logged and on any request
// for something other than the page itself or inline data.
func (ev *pageEvents) check(t *testing.T, url string) {
	t.Helper()
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if len(ev.problems) > 0 {
		t.Errorf("console errors or exceptions: %q", ev.problems)
	}
	if len(ev.requests) == 0 {
		t.Fatalf("no network events seen: the listener is not working")
	}
	for _, u := range ev.requests {
		if u != url && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page requested %q", u)
		}
	}
}

// mustBrowser ends the test on an error from the browser.
func mustBrowser(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// checkRendered checks the loaded page's title, its charts (two time
// charts and one histogram per metric with values) and its findings.
func checkRendered(ctx context.Context, t *testing.T, r *Report) {
	title, err := chromedp.Run(ctx, chromedp.Title())
	mustBrowser(t, err)
	charts, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('svg.chart').length`))
	mustBrowser(t, err)
	findings, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('article.finding').length`))
	mustBrowser(t, err)
	if !strings.Contains(title, "loganalyze") {
		t.Errorf("title %q", title)
	}
	wantCharts := 2
	if len(r.Breakdown) > 0 {
		wantCharts++ // the breakdown's stacked bars
	}
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
}

// checkSorting clicks the headers of the model table of request_time:
// the table starts in the report's order (count, largest first); one
// click on p99 sorts by p99, largest first; a click on key sorts by name.
func checkSorting(ctx context.Context, t *testing.T, r *Report) {
	table := `#m-request_time table[data-dim="model"]`
	firstColumn := `Array.from(document.querySelector('` + table + `').tBodies[0].rows).map(r => r.cells[0].textContent)`
	p99Head := chromedp.CSS(table + ` thead th:nth-child(5)`)
	keyHead := chromedp.CSS(table + ` thead th:nth-child(1)`)
	before, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](firstColumn))
	mustBrowser(t, err)
	mustBrowser(t, chromedp.Do(ctx, chromedp.Click(p99Head)))
	after, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](firstColumn))
	mustBrowser(t, err)
	sortState, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+table+` thead th:nth-child(5)').getAttribute('aria-sort')`))
	mustBrowser(t, err)
	mustBrowser(t, chromedp.Do(ctx, chromedp.Click(keyHead)))
	again, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](firstColumn))
	mustBrowser(t, err)

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
}

// saveScreenshot writes a PNG of the whole page to
// $LOGANALYZE_SCREENSHOT, else to a temporary directory.
func saveScreenshot(ctx context.Context, t *testing.T) {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100 gives a PNG
	mustBrowser(t, err)
	shotPath := os.Getenv("LOGANALYZE_SCREENSHOT")
	if shotPath == "" {
		shotPath = filepath.Join(t.TempDir(), "report.png")
	}
	if err := os.WriteFile(shotPath, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", shotPath, len(shot))
}
