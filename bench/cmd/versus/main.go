// Command versus times the whole loganalyze analysis against what a user
// would reach for instead, on the same generated logs in the same run:
// DuckDB computing one grouped quantile query over JSON lines, CSV and
// Parquet, and GoAccess reading nginx text. After one untimed run of
// each, the runs of the two sides alternate, and the table gives the
// medians side by side: wall time, and CPU time (user and system),
// which moves less than the wall time where the host takes cores from
// the machine.
//
//	cd bench && go run ./cmd/versus -n 2000000 -runs 3
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"loganalyze/gen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "versus:", err)
		os.Exit(1)
	}
}

// input is one generated log and what loganalyze is timed against on it.
type input struct {
	key   string // as -formats names it
	name  string // as the table shows it
	file  string // under the directory
	n     int    // requests of background traffic
	write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)
	// others are the tools timed against loganalyze on it, each a row.
	others []contender
}

// row is one line of the table.
type row struct {
	name, other string
	lines, size int64
	la, them    time.Duration // medians
	// laCPU and themCPU are the medians of the runs' CPU times, user
	// and system: a machine whose host takes cores from it (steal)
	// moves the wall times by a quarter from hour to hour, these less.
	laCPU, themCPU time.Duration
	rss            int64 // loganalyze's largest peak RSS over its runs
	// ratios are the runs' paired ratios, each of the other tool's run
	// over the loganalyze run just before it: the two of a pair see the
	// machine in the same state, which moves by the hour.
	ratios []float64
}

func run() error {
	n := flag.Int("n", 2_000_000, "generated requests of background traffic for JSON lines, CSV and Parquet")
	nginxN := flag.Int("nginx-n", 500_000, "generated requests for the nginx text log")
	runs := flag.Int("runs", 3, "timed runs of each side, alternating")
	threads := flag.Int("threads", 2, "loganalyze workers, DuckDB threads and GoAccess jobs")
	dir := flag.String("dir", "", "directory for the generated files (default: a temporary one)")
	bin := flag.String("loganalyze", "", "loganalyze binary to time (default: built from ../cmd/loganalyze)")
	only := flag.String("formats", "jsonl,csv,parquet,nginx", "comma list of the inputs to time")
	asCommand := flag.Bool("duckdb-command", true, "time DuckDB as a command too: a process of its own per query, as the duckdb shell runs one")
	once := flag.String("duckdb-once", "", "run this DuckDB query once and exit (the -duckdb-command child)")
	flag.Parse()
	if *once != "" {
		return queryOnce(*once, *threads)
	}
	if *runs < 1 || *threads < 1 {
		return errors.New("-runs and -threads must be at least 1")
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "versus")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	if *bin == "" {
		*bin = filepath.Join(*dir, "loganalyze")
		if err := buildLoganalyze(*bin); err != nil {
			return fmt.Errorf("cannot build loganalyze: %w", err)
		}
	}
	duck := func(reader string) []contender {
		cs := []contender{&duckdb{reader: reader}}
		if *asCommand {
			cs = append(cs, &duckdbCommand{reader: reader})
		}
		return cs
	}
	inputs := []input{
		{"jsonl", "JSON lines", "versus.jsonl", *n, gen.WriteJSONL, duck("read_json")},
		{"csv", "CSV", "versus.csv", *n, gen.WriteCSV, duck("read_csv")},
		{"parquet", "Parquet", "versus.parquet", *n, gen.WriteParquet, duck("read_parquet")},
		{"nginx", "nginx text", "versus.log", *nginxN, gen.WriteNginx, []contender{&goaccess{}}},
	}
	var rows []row
	for _, in := range inputs {
		if !slices.Contains(strings.Split(*only, ","), in.key) {
			continue
		}
		rs, err := measure(in, *dir, *bin, *threads, *runs)
		if err != nil {
			return fmt.Errorf("%s: %w", in.name, err)
		}
		rows = append(rows, rs...)
	}
	printTable(rows, *runs, *threads)
	return nil
}

// buildLoganalyze builds the command of the loganalyze module this one
// replaces (../), in that module, with its own go.sum, as README's
// install does: static, without cgo (no C library to load at start-up).
func buildLoganalyze(bin string) error {
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "loganalyze").Output()
	if err != nil {
		return err
	}
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./cmd/loganalyze")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Dir = strings.TrimSpace(string(root))
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	return build.Run()
}

// measure generates in's file and times loganalyze and each of the
// other tools on it, in turn: a row per other tool.
func measure(in input, dir, bin string, threads, runs int) ([]row, error) {
	path := filepath.Join(dir, in.file)
	lines, err := generate(in, path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	for _, o := range in.others {
		if err := o.prepare(path, threads); err != nil {
			return nil, err
		}
		defer o.close()
	}
	// One run of each side untimed, so that the timed ones see what a
	// user's runs after the first do: the file in the page cache, and
	// nothing of its writing or of the generator's heap still in the
	// machine's way.
	if _, _, _, err := timeLoganalyze(bin, path, dir, threads); err != nil {
		return nil, err
	}
	for _, o := range in.others {
		if _, _, err := o.time(); err != nil {
			return nil, err
		}
	}
	rows := make([]row, len(in.others))
	thems, themCPUs := make([][]time.Duration, len(in.others)), make([][]time.Duration, len(in.others))
	for i, o := range in.others {
		rows[i] = row{name: in.name, other: o.name(), lines: lines, size: st.Size()}
	}
	var las, laCPUs []time.Duration
	var rss int64
	for range runs {
		d, cpu, peak, err := timeLoganalyze(bin, path, dir, threads)
		if err != nil {
			return nil, err
		}
		las, laCPUs, rss = append(las, d), append(laCPUs, cpu), max(rss, peak)
		for i, o := range in.others {
			od, ocpu, err := o.time()
			if err != nil {
				return nil, err
			}
			thems[i], themCPUs[i] = append(thems[i], od), append(themCPUs[i], ocpu)
			rows[i].ratios = append(rows[i].ratios, od.Seconds()/d.Seconds())
		}
	}
	fmt.Fprintf(os.Stderr, "%s: loganalyze %v (CPU %v)\n", in.name, las, laCPUs)
	for i := range rows {
		r := &rows[i]
		fmt.Fprintf(os.Stderr, "%s: %s %v (CPU %v)\n", in.name, r.other, thems[i], themCPUs[i])
		r.la, r.them = median(las), median(thems[i])
		r.laCPU, r.themCPU = median(laCPUs), median(themCPUs[i])
		r.rss = rss
	}
	return rows, nil
}

// generate writes in's log to path and returns its number of lines.
func generate(in input, path string) (int64, error) {
	reqs := gen.Generate(gen.Config{Seed: 1, N: in.n, Plants: gen.All})
	out, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(out, 1<<20)
	_, err = in.write(w, reqs, gen.WriteOptions{})
	// Synced, the file's gigabyte is not written back to the disk while
	// the tools read it, on the cores they are timed on; and the
	// requests' memory is given back before they run.
	if err = errors.Join(err, w.Flush(), out.Sync(), out.Close()); err != nil {
		return 0, fmt.Errorf("cannot write %q: %w", path, err)
	}
	n := int64(len(reqs))
	runtime.GC()
	debug.FreeOSMemory()
	return n, nil
}

// timeLoganalyze runs `loganalyze --json FILE.json FILE` as a user would
// and returns its wall time, its CPU time and its peak RSS (0 when
// unknown). The peak is read by /usr/bin/time: the kernel's count for a
// child of this process would start from this process's own resident
// set, DuckDB's included.
func timeLoganalyze(bin, path, dir string, threads int) (time.Duration, time.Duration, int64, error) {
	args := []string{bin, "--workers", fmt.Sprint(threads), "--json", filepath.Join(dir, "report.json"), path}
	peak := filepath.Join(dir, "peak-rss")
	os.Remove(peak)
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		args = append([]string{"/usr/bin/time", "-f", "%M", "-o", peak}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, 0, fmt.Errorf("loganalyze: %v: %s", err, stderr.String())
	}
	d := time.Since(start)
	var kb int64
	if b, err := os.ReadFile(peak); err == nil {
		fmt.Sscan(string(b), &kb)
	}
	return d, childCPU(cmd.ProcessState), kb << 10, nil
}

func printTable(rows []row, runs, threads int) {
	fmt.Printf("median of %d alternating runs, %d threads each, %s/%s, %d CPUs\n\n",
		runs, threads, runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	fmt.Println("| input | lines | size | other tool | its time | loganalyze | speed ratio (other / loganalyze) | loganalyze peak RSS | its CPU | loganalyze CPU | CPU ratio |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		rss := "n/a"
		if r.rss > 0 {
			rss = fmt.Sprintf("%d MB", r.rss/1e6)
		}
		fmt.Printf("| %s | %s | %.2f GB | %s | %.2f s | %.2f s | %.2f× | %s | %.2f s | %.2f s | %.2f× |\n",
			r.name, thousands(r.lines), float64(r.size)/1e9, r.other,
			r.them.Seconds(), r.la.Seconds(), r.them.Seconds()/r.la.Seconds(), rss,
			r.themCPU.Seconds(), r.laCPU.Seconds(), r.themCPU.Seconds()/r.laCPU.Seconds())
	}
	fmt.Println()
	fmt.Println("paired speed ratios (each run of the other tool over the loganalyze run before it):")
	for _, r := range rows {
		s := slices.Clone(r.ratios)
		slices.Sort(s)
		fmt.Printf("- %s, %s: %.2f–%.2f×, median %.2f×\n", r.name, r.other, s[0], s[len(s)-1], medianFloat(s))
	}
}

// medianFloat is the median of sorted values.
func medianFloat(s []float64) float64 {
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
