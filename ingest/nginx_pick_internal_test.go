package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// pickBoth picks a format for head among cands as the pipeline does,
// with the whole-line shortcut (readsWhole) and without it.
func pickBoth(head []byte, cands []*logFormat, mine bool) (fast, full *logFormat, fastTail, fullTail bool) {
	defer func(was bool) { wholeFirst = was }(wholeFirst)
	wholeFirst = true
	fast, fastTail = pickLogFormatTail(head, cands, mine)
	wholeFirst = false
	full, fullTail = pickLogFormatTail(head, cands, mine)
	return fast, full, fastTail, fullTail
}

// pickCands are the candidate lists the pipeline passes: the known
// formats alone, and after formats given (--log-format): one that is a
// known format's text, one of its own, and one whose last variable takes
// the rest of a combined line, which reads such a line whole as the
// combined format does, with fewer variables.
func pickCands(t testing.TB) [][]*logFormat {
	s := testSchema(t)
	known := compileKnown(s)
	var given []*logFormat
	for _, lf := range []string{knownFormatByName("combined").format, `$remote_addr [$time_local] "$request" $status $request_time`,
		`$remote_addr - $remote_user [$time_local] "$request" $status $http_user_agent`} {
		fs, err := compileLogFormats(lf, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			f.given = true
		}
		given = append(given, fs...)
	}
	return [][]*logFormat{known, append(append([]*logFormat(nil), given...), known...)}
}

// pickHeads are heads of text logs of every known format and others: the
// text fixtures and the sample logs, each whole (its first 64 KB), line
// by line, and mixed with a line of another file or a line of noise.
func pickHeads(t testing.TB) [][]byte {
	var files []string
	for _, pat := range []string{"testdata/text/*", "../testdata/logs/*.log", "../testdata/shared/real/*/*.log", "../testdata/shared/real/*.log"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("%d text fixtures, want the project's", len(files))
	}
	var heads [][]byte
	var firsts [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data = data[:min(len(data), 64<<10)]
		heads = append(heads, data)
		lines := headLines(data, guessLines)
		for _, l := range lines {
			heads = append(heads, append(append([]byte(nil), l...), '\n'))
		}
		if len(lines) > 0 {
			firsts = append(firsts, lines[0])
		}
	}
	for i, a := range firsts {
		b := firsts[(i+1)%len(firsts)]
		heads = append(heads,
			bytes.Join([][]byte{a, a, b, a}, []byte("\n")),
			bytes.Join([][]byte{a, []byte("a line of no format"), a}, []byte("\n")),
			bytes.Join([][]byte{a, append(append([]byte(nil), a...), " trailing words"...)}, []byte("\n")))
	}
	return heads
}

// TestReadsWholeChoosesAsEveryLine: the shortcut chooses the format, and
// whether its lines go on past its end, as scoring every format on every
// line does, on the heads of real and fixture logs of every known format,
// alone, line by line and mixed; and it takes the shortcut on most of
// many of them, so that the comparison covers it.
func TestReadsWholeChoosesAsEveryLine(t *testing.T) {
	heads := pickHeads(t)
	taken, n := 0, 0
	for ci, cands := range pickCands(t) {
		for _, mine := range []bool{true, false} {
			for _, h := range heads {
				fast, full, fastTail, fullTail := pickBoth(h, cands, mine)
				if fast != full || fastTail != fullTail {
					t.Errorf("cands %d, mine %v, head %.200q:\nshortcut %s (tail %v), every line %s (tail %v)",
						ci, mine, h, formatName(fast), fastTail, formatName(full), fullTail)
				}
				if full == nil {
					continue // a log of none of these formats (Gin's, a JSON log's): no shortcut to take
				}
				n++
				if readsWhole(slicesOwnless(h), cands) != nil {
					taken++
				}
			}
		}
	}
	// Most heads that a format reads, of a single format, are read
	// whole; the mixed ones are left to the scoring: both ways are
	// compared.
	if 3*taken < n || taken == n {
		t.Errorf("the shortcut chose %d of %d heads a format reads, want a third or more, not all", taken, n)
	}
}

// slicesOwnless is the lines pickLogFormatTail scores of head.
func slicesOwnless(head []byte) [][]byte {
	var out [][]byte
	for _, l := range headLines(head, guessLines) {
		if !ownLogLine(l) {
			out = append(out, l)
		}
	}
	return out
}

func formatName(f *logFormat) string {
	if f == nil {
		return "none"
	}
	if f.given {
		return "given " + f.name
	}
	return f.name
}

// FuzzPickLogFormat: on any head, the shortcut chooses as scoring every
// format on every line does.
func FuzzPickLogFormat(f *testing.F) {
	for _, h := range pickHeads(f) {
		if len(h) < 2048 {
			f.Add(h, false)
		}
	}
	all := pickCands(f)
	f.Fuzz(func(t *testing.T, head []byte, given bool) {
		cands := all[0]
		if given {
			cands = all[1]
		}
		for _, mine := range []bool{true, false} {
			fast, full, fastTail, fullTail := pickBoth(head, cands, mine)
			if fast != full || fastTail != fullTail {
				t.Fatalf("mine %v: shortcut %s (tail %v), every line %s (tail %v)", mine, formatName(fast), fastTail, formatName(full), fullTail)
			}
		}
	})
}
