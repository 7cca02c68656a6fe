package ingest

import (
	"fmt"
	"time"
)

// clbColumns are the fields of the Tencent CLB layer-7 access log, in
// order (SPEC §3). Two of them hold an address and a port.
var clbColumns = [...]string{
	"stgw_request_id", "time_local", "protocol_type", "server_addr", "server_name",
	"remote_addr", "status", "upstream_addr", "upstream_status", "proxy_host",
	"request", "request_length", "bytes_sent", "http_host", "http_user_agent",
	"http_referer", "request_time", "upstream_response_time", "upstream_connect_time",
	"upstream_header_time", "tcpinfo_rtt", "connection", "connection_requests",
	"ssl_handshake_time", "ssl_cipher", "ssl_protocol", "vip_vpcid", "uri",
	"server_protocol",
}

// clbFields is the number of bracketed fields of a CLB line.
const clbFields = len(clbColumns)

// clbLayouts are the layouts CLB has written, told by their number of
// fields: today's (clbColumns, Configuring Access Logs, 214/35063); the
// same before it added [$uri] [$server_protocol], ending at [$vip_vpcid]
// (27); and the log it stored to COS (Storing Request Logs to COS,
// 214/10329: 26 fields, no [$upstream_addr], ending at
// [$ssl_session_reused]). Their times are all seconds.
var clbLayouts = [][]string{
	clbColumns[:],
	clbColumns[:27],
	append(append(append([]string(nil), clbColumns[:7]...), clbColumns[8:26]...), "ssl_session_reused"),
}

// How a CLB column's text becomes the value the schema reads.
const (
	clbPlain    = iota
	clbHostPort // "addr:port", "[v6]:port": the address
	clbSSL      // "reused:handshake:…": the full handshake time
)

// clbParser reads the Tencent CLB access log: 29 fields (or an older
// layout's 27 or 26: clbLayouts), each in square brackets, separated by
// single spaces. A field ends at "] [" or at the line's final "]", so a
// value may hold a "]" of its own. The column names go through the
// schema, so --map applies to them as to any other format.
type clbParser struct {
	loc     *time.Location
	layouts []clbLayout
	vals    [clbFields][]byte
}

// clbLayout is one layout's bindings and readings, by column.
type clbLayout struct {
	binds []Bindings
	how   []uint8
}

func newCLBParser(c *parserConfig) *clbParser {
	p := &clbParser{loc: c.loc}
	for _, cols := range clbLayouts {
		l := clbLayout{binds: make([]Bindings, len(cols)), how: make([]uint8, len(cols))}
		for i, name := range cols {
			l.binds[i] = c.schema.LookupString(name)
			switch name {
			case "server_addr", "remote_addr":
				l.how[i] = clbHostPort
			case "ssl_handshake_time":
				l.how[i] = clbSSL
			}
		}
		p.layouts = append(p.layouts, l)
	}
	return p
}

var errNotCLB = fmt.Errorf("not a CLB access log line (want %d fields in [brackets])", clbFields)

// Parse reads one line into r.
func (p *clbParser) Parse(line []byte, r *Record) error {
	for len(line) > 0 && line[len(line)-1] == ' ' {
		line = line[:len(line)-1]
	}
	if len(line) < 2 || line[0] != '[' || line[len(line)-1] != ']' {
		return errNotCLB
	}
	body := line[1 : len(line)-1]
	// One pass over the line: fields are short, so a byte loop beats
	// searching for "] [" field by field.
	n, start := 0, 0
	for j := 0; j+2 < len(body); j++ {
		if body[j] != ']' || body[j+1] != ' ' || body[j+2] != '[' {
			continue
		}
		if n < clbFields {
			p.vals[n] = body[start:j]
		}
		n++
		j += 2
		start = j + 1
	}
	if n < clbFields {
		p.vals[n] = body[start:]
	}
	n++
	var l *clbLayout
	for i := range p.layouts {
		if len(p.layouts[i].binds) == n {
			l = &p.layouts[i]
		}
	}
	if l == nil {
		return fmt.Errorf("want %d bracketed fields (or an older layout's 27 or 26), got %d", clbFields, n)
	}
	for i, v := range p.vals[:n] {
		if len(l.binds[i]) == 0 {
			continue
		}
		switch l.how[i] {
		case clbHostPort:
			v = hostOf(v)
		case clbSSL:
			v = clbHandshake(v)
		}
		if err := r.Set(l.binds[i], v, p.loc); err != nil {
			return err
		}
	}
	return r.Finish()
}

// hostOf returns the address of "addr:port": "[::1]:443" and "[::1]" give
// "::1"; otherwise the port is after the last colon, when it is a number.
func hostOf(b []byte) []byte {
	if len(b) > 0 && b[0] == '[' {
		if i := indexByte(b, ']'); i > 0 {
			return b[1:i]
		}
		return b
	}
	i := lastIndexByte(b, ':')
	if i < 0 || i == len(b)-1 {
		return b
	}
	for _, c := range b[i+1:] {
		if c < '0' || c > '9' {
			return b
		}
	}
	return b[:i]
}

// clbHandshake returns the full handshake time of CLB's
// ssl_handshake_time ("1:0.000:0.000:…", the second field); a plain
// number is returned as it is.
func clbHandshake(b []byte) []byte {
	i := indexByte(b, ':')
	if i < 0 {
		return b
	}
	rest := b[i+1:]
	if j := indexByte(rest, ':'); j >= 0 {
		return rest[:j]
	}
	return rest
}

// newTextParser returns the parser of the header-row and bracketed text
// formats: CSV, TSV and CLB.
func newTextParser(f Format, c *parserConfig) lineParser {
	switch f {
	case CSV:
		return newCSVParser(c, c.csvSep())
	case TSV:
		return newCSVParser(c, '\t')
	}
	return newCLBParser(c)
}
