package ingest

import (
	"bytes"
	"fmt"
)

// HAProxy writes more than its requests to the log it sends them to:
// its own messages (a proxy started or stopped, a server's state, a
// health check's result), an error log line for a connection that
// failed before any request (configuration manual 8.2.5), and the TCP
// log of a proxy in TCP mode (8.2.2). None is a request: each is
// passed over, counted, not a bad line.
var (
	errHAPEvent = fmt.Errorf("%w: HAProxy's own message (a proxy's start or stop, a server's state, a health check)", errPassOver)
	errHAPConn  = fmt.Errorf("%w: HAProxy's error log line, a connection that failed before its request (an SSL handshake, a PROXY header)", errPassOver)
	errHAPTCP   = fmt.Errorf("%w: HAProxy's TCP log line (option tcplog), a connection and no HTTP request", errPassOver)
)

// hapEvents begin the messages HAProxy logs of itself, after the
// syslog header: "Proxy http-in started.", "Server be/s1 is DOWN,
// reason: …", "backend be has no server available!", "Health check for
// server be/s1 failed, …", "Connect from 10.0.0.1:1234 to …" (a TCP
// proxy without a log format), "Stopping frontend fe in 0 ms.".
var hapEvents = [][]byte{
	[]byte("Proxy "), []byte("Server "), []byte("Backup Server "), []byte("backend "),
	[]byte("Health check "), []byte("Agent check "), []byte("Connect from "),
	[]byte("Stopping "), []byte("Pausing "), []byte("Resuming "), []byte("Enabling "), []byte("Disabling "),
	[]byte("Frontend "), []byte("frontend "),
}

// hapLevels begin what HAProxy writes on its standard error, which a
// container's log holds beside the requests sent to its standard
// output: "[NOTICE]   (1) : haproxy version is 2.8.3", "[WARNING]  (8) :
// Server be/s1 is DOWN, …" (before 2.4: "[WARNING] 072/101500 (8) : …").
var hapLevels = [][]byte{[]byte("[NOTICE]"), []byte("[WARNING]"), []byte("[ALERT]"), []byte("[DEBUG]")}

// haproxyOwn returns why a line that is not an HTTP log line is one of
// HAProxy's own (an error wrapping errPassOver), or nil when it is not
// one of them either: a bad line.
func haproxyOwn(line []byte) error {
	n, _ := hapHeader(line)
	msg := line[n:]
	for _, l := range hapLevels {
		if bytes.HasPrefix(msg, l) {
			return errHAPEvent
		}
	}
	if c, d := haproxyStart(line); c >= 0 {
		end := bytes.IndexByte(line[d:], ']')
		if end < 0 {
			return nil
		}
		words := bytes.Fields(line[d+end+1:])
		switch {
		case len(words) >= 2 && bytes.HasSuffix(words[0], []byte(":")) && bytes.IndexByte(words[0], '/') > 0:
			return errHAPConn // "frt/f1: Connection error during SSL handshake"
		case len(words) >= 5 && tcpTimers(words[2]):
			return errHAPTCP // "fe be/s1 0/0/5007 212 --"
		}
		return nil
	}
	for _, e := range hapEvents {
		if bytes.HasPrefix(msg, e) {
			return errHAPEvent
		}
	}
	return nil
}

// tcpTimers reports whether w is a TCP log's timers, Tw/Tc/Tt: three
// integers, -1 for a step never reached, Tt "+" before it under option
// logasap.
func tcpTimers(w []byte) bool {
	parts := bytes.Split(w, []byte("/"))
	if len(parts) != 3 {
		return false
	}
	for i, p := range parts {
		if i == 2 && len(p) > 0 && p[0] == '+' {
			p = p[1:]
		}
		if len(p) > 0 && p[0] == '-' {
			p = p[1:]
		}
		if len(p) == 0 || !allDigits(p) {
			return false
		}
	}
	return true
}
