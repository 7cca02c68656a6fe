package main

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"

	"loganalyze/internal/sharedtest"
)

// contender is the tool loganalyze is timed against on one input.
type contender interface {
	name() string
	// prepare readies the tool for timing runs over path.
	prepare(path string, threads int) error
	// time runs it once over the file and returns the wall time and
	// the CPU time (user and system) it took.
	time() (wall, cpu time.Duration, err error)
	close()
}

// duckdb answers the query of issue 10 in-process: counts and quantiles of
// request_time and first_token_ms per region × model × status.
type duckdb struct {
	reader string // read_json, read_csv, read_parquet
	db     *sql.DB
	query  string
}

func (d *duckdb) name() string { return "DuckDB" }

func (d *duckdb) prepare(path string, threads int) error {
	if err := d.open(threads); err != nil {
		return err
	}
	d.query = queryOf(d.reader, path)
	return nil
}

// open opens an in-memory database that runs queries on threads threads.
func (d *duckdb) open(threads int) error {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("SET threads = " + strconv.Itoa(threads)); err != nil {
		db.Close()
		return err
	}
	d.db = db
	return nil
}

// queryOf is issue 10's query over the file at path, read by reader.
func queryOf(reader, path string) string {
	return fmt.Sprintf(`SELECT region, model, status, count(*),
	quantile_cont(request_time, [0.5, 0.95, 0.99]),
	quantile_cont(first_token_ms, [0.5, 0.95, 0.99])
FROM %s('%s') GROUP BY ALL`, reader, strings.ReplaceAll(path, "'", "''"))
}

// time's CPU time is this process's over the query: DuckDB runs in it,
// and the Go side only waits for the rows.
func (d *duckdb) time() (time.Duration, time.Duration, error) {
	cpu0, start := sharedtest.CPUTime(), time.Now()
	rows, err := d.db.Query(d.query)
	if err != nil {
		return 0, 0, err
	}
	groups := 0
	for rows.Next() {
		groups++
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return 0, 0, err
	}
	wall, cpu := time.Since(start), sharedtest.CPUTime()-cpu0
	if groups == 0 {
		return 0, 0, errors.New("duckdb returned no groups")
	}
	return wall, cpu, nil
}

// duckdbCommand answers duckdb's query in a process of its own each
// time, as the duckdb shell does for a user who runs it on a dump: its
// start-up, its library's loading and its memory's first touch are in
// its time, as loganalyze's are in loganalyze's. The process is this
// command, run with -duckdb-once (queryOnce).
type duckdbCommand struct {
	reader, query string
	self, threads string
}

func (d *duckdbCommand) name() string { return "DuckDB, a process per query" }

func (d *duckdbCommand) prepare(path string, threads int) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	d.self, d.threads = self, strconv.Itoa(threads)
	d.query = queryOf(d.reader, path)
	return nil
}

func (d *duckdbCommand) time() (time.Duration, time.Duration, error) {
	cmd := exec.Command(d.self, "-threads", d.threads, "-duckdb-once", d.query)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("duckdb query: %v: %s", err, stderr.String())
	}
	return time.Since(start), childCPU(cmd.ProcessState), nil
}

func (d *duckdbCommand) close() {}

// queryOnce opens DuckDB, runs query on threads threads and exits: the
// process duckdbCommand times.
func queryOnce(query string, threads int) error {
	d := &duckdb{}
	if err := d.open(threads); err != nil {
		return err
	}
	defer d.close()
	d.query = query
	_, _, err := d.time()
	return err
}

func (d *duckdb) close() {
	if d.db != nil {
		d.db.Close()
	}
}

// goaccess runs GoAccess over nginx text in gen's log format, writing its
// JSON report. GoAccess 1.7 parses on one thread whatever -threads says.
type goaccess struct {
	args []string
}

func (g *goaccess) name() string { return "GoAccess" }

func (g *goaccess) prepare(path string, threads int) error {
	if _, err := exec.LookPath("goaccess"); err != nil {
		return fmt.Errorf("goaccess is not installed (apt-get install goaccess): %w", err)
	}
	// gen.NginxLogFormat: the combined format, then rt=$request_time.
	g.args = []string{path, "--no-progress", "--no-global-config",
		`--log-format=%h %^ %e [%d:%t %^] "%r" %s %b "%R" "%u" rt=%T %^`,
		"--date-format=%d/%b/%Y", "--time-format=%H:%M:%S",
		"-o", filepath.Join(filepath.Dir(path), "goaccess.json")}
	return nil
}

func (g *goaccess) time() (time.Duration, time.Duration, error) {
	cmd := exec.Command("goaccess", g.args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("goaccess: %v: %s", err, stderr.String())
	}
	d := time.Since(start)
	st, err := os.Stat(g.args[len(g.args)-1])
	if err != nil || st.Size() == 0 {
		return 0, 0, errors.New("goaccess wrote no report")
	}
	return d, childCPU(cmd.ProcessState), nil
}

// childCPU is the CPU time, user and system, of a finished child and of
// the children it waited for (/usr/bin/time's: the command it timed).
func childCPU(ps *os.ProcessState) time.Duration { return ps.UserTime() + ps.SystemTime() }

func (g *goaccess) close() {}
