package ingest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// The CSV parser as it was before its splitting and setting were made
// cheaper, kept as the oracle of FuzzCSVRef: the row split into fields
// byte by byte, then every value through Record.Set.

func refCSVParse(p *csvParser, line []byte, r *Record) error {
	if len(p.header) > 0 && bytes.Equal(bytes.TrimPrefix(line, utf8BOM), p.header) {
		return errHeaderAgain // the header again: files joined one after another
	}
	vals, err := refCSVSplit(p.sep, line)
	if err != nil {
		return err
	}
	if len(vals) != len(p.binds) {
		return fmt.Errorf("want %d fields, got %d", len(p.binds), len(vals))
	}
	for i, v := range vals {
		if p.ops[i] == csvJSON {
			if err := p.object(r, i, v); err != nil {
				return err
			}
			continue
		}
		if len(p.binds[i]) == 0 {
			continue
		}
		if p.ops[i] == csvNum {
			v = p.decimalComma(v) // "1,000", a number's groups (grouped)
		}
		if err := r.Set(p.binds[i], v, p.loc); err != nil {
			return err
		}
	}
	r.Finish()
	return nil
}

// refCSVSplit splits a row byte by byte. Outside TSV and a file cut by
// spaces, the spaces around a field are padding (spacedFields): skipped
// before it, so that a quote after them begins a quoted field, and after
// its closing quote, and trimmed from the end of an unquoted field.
func refCSVSplit(sep byte, line []byte) ([][]byte, error) {
	var vals [][]byte
	padded := sep != '\t' && sep != ' ' // a space separator has no padding
	i := 0
	for {
		var val []byte
		for padded && i < len(line) && line[i] == ' ' {
			i++
		}
		if i < len(line) && line[i] == '"' {
			start := i + 1
			j := start
			escaped := false
			for {
				k := bytes.IndexByte(line[j:], '"')
				if k < 0 {
					return vals, &csvError{col: start, msg: "unterminated quoted field"}
				}
				j += k
				if j+1 < len(line) && line[j+1] == '"' {
					escaped = true
					j += 2
					continue
				}
				break
			}
			val = line[start:j]
			if escaped {
				val = bytes.ReplaceAll(val, []byte(`""`), []byte(`"`))
			}
			j++
			for padded && j < len(line) && line[j] == ' ' {
				j++
			}
			if j < len(line) && line[j] != sep {
				return vals, &csvError{col: j + 1, msg: "text after a quoted field"}
			}
			i = j
		} else {
			j := i
			for j < len(line) && line[j] != sep {
				if line[j] == '"' && sep != '\t' { // text in TSV (tsvQuotes)
					return vals, &csvError{col: j + 1, msg: "quote in an unquoted field"}
				}
				j++
			}
			val = line[i:j]
			for padded && len(val) > 0 && val[len(val)-1] == ' ' {
				val = val[:len(val)-1]
			}
			i = j
		}
		vals = append(vals, val)
		if i >= len(line) {
			break
		}
		i++
	}
	return vals, nil
}

// FuzzCSVRef: the parser reads every row as the reference does: the same
// error, or the same fields with the same values.
func FuzzCSVRef(f *testing.F) {
	lines := textSampleLines(f, "tokenhub-sample.csv", 20, func(l string) bool { return strings.Count(l, ",") < 5 || strings.Contains(l, `", `) })
	header := lines[0]
	for _, l := range lines[1:] {
		f.Add(header, l, false)
		f.Add(header, strings.ReplaceAll(l, ",", "\t"), true)
		f.Add(header, strings.Replace(l, ",200,", ",-0,", 1), false)
		f.Add(header, strings.Replace(l, ",200,", `,"20""0",`, 1), false)
	}
	f.Add(`time,request_time,status,duration`, `2026-11-29 10:00:00,1e3,2.5,12`, false)
	f.Add(`time,request_time,status,stream`, `1795917600,-1,+200,true`, false)
	f.Add(`time,request_time,status,stream`, `1795917600,12345678901234567890,0.5.5,"1"`, false)
	f.Add(`"a""b",c`, `"x""",`, false)
	f.Add(`time,ai_log,request_time`, `2026-11-29 10:00:00,"{""model"":""q"",""input_token"":-0}",1`, false)
	f.Add("created_at\tuse_time\tother\tis_stream", "1795917600\t3\t{\"frt\":350.5}\t\\N", true)
	f.Fuzz(func(t *testing.T, header, line string, tsv bool) {
		sep := byte(',')
		if tsv {
			sep = '\t'
		}
		got := newCSVParser(textConfig(t, header), sep)
		ref := newCSVParser(textConfig(t, header), sep)
		var a, b Record
		ea := got.Parse([]byte(line), &a)
		eb := refCSVParse(ref, []byte(line), &b)
		if errText(ea) != errText(eb) {
			t.Fatalf("%q with header %q: error %v; reference %v", line, header, ea, eb)
		}
		if ea == nil {
			if d := sameRecord(&a, &b); d != "" {
				t.Fatalf("%q with header %q: %s", line, header, d)
			}
		}
	})
}

// TestCSVFieldsEachLength: every field of a row, at every length from 0
// to 17 (so that it ends at each byte of a word, in the word after, or
// two words on), plain, quoted, or with a stray quote at each position,
// is read as the reference reads it, with commas, with tabs and with
// spaces (spaceSep: no padding, an empty field between two spaces).
func TestCSVFieldsEachLength(t *testing.T) {
	const header = "time,model,request_time,extra,status,region"
	fill := map[int]byte{0: '1', 1: 'a', 2: '7', 3: 'z', 4: '2', 5: 'r'}
	checked := 0
	for _, sep := range []byte{',', '\t', ' '} {
		base := []string{"2026-11-29 10:00:00", "m1", "1.5", "x", "200", "ap-sh"}
		if sep == ' ' {
			base[0] = `"2026-11-29 10:00:00"` // holds the separator
		}
		for col := range base {
			for n := 0; n <= 17; n++ {
				v := strings.Repeat(string(fill[col]), n)
				vars := []string{v, `"` + v + `"`, `"` + v + `""x"`}
				for q := 0; q < n; q++ {
					vars = append(vars, v[:q]+`"`+v[q+1:])
				}
				for _, fv := range vars {
					row := append([]string(nil), base...)
					row[col] = fv
					line := strings.Join(row, string(sep))
					h := strings.ReplaceAll(header, ",", string(sep))
					got := newCSVParser(textConfig(t, h), sep)
					ref := newCSVParser(textConfig(t, h), sep)
					var a, b Record
					ea := got.Parse([]byte(line), &a)
					eb := refCSVParse(ref, []byte(line), &b)
					if errText(ea) != errText(eb) {
						t.Fatalf("%q: error %v; reference %v", line, ea, eb)
					}
					if ea == nil {
						if d := sameRecord(&a, &b); d != "" {
							t.Fatalf("%q: %s", line, d)
						}
					}
					checked++
				}
			}
		}
	}
	if checked < 3*6*18*3 {
		t.Fatalf("checked %d rows", checked)
	}
}
