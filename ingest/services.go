package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// A dump of several programs' logs in one stream: docker compose logs
// of a whole stack (a gateway's, a proxy's and a model server's lines
// interleaved, each behind its service's name), or kubectl logs
// --prefix --all-containers of a pod (an Envoy sidecar's JSON beside
// the application's text). Each program writes its own format, so each
// service's (each container's) lines are read as a file of their own,
// listed as the dump's, "dump.log!/litellm": format, source, bad lines
// and all. Replicas of one service (litellm-1, litellm-2) and one
// container of several pods are one program, read together.

// maxServicesDump bounds the dump read into memory to be split: a
// larger one is read as one file, its most common format's lines read.
// (A variable, so that a test can split small dumps only.)
var maxServicesDump = 64 << 20

// serviceOf returns the program a line of a dump is written by: the
// service docker compose printed before it, without a replica's number
// ("litellm-1", "stack_litellm_1": "litellm", "stack_litellm"), or the
// container of kubectl's source ("[pod/gw-0/istio-proxy]":
// "istio-proxy"); nil for a line behind neither.
func serviceOf(line []byte) []byte {
	if n := kubectlPrefixLen(line); n > 0 {
		src := line[len("[pod/") : n-2]
		return src[bytes.LastIndexByte(src, '/')+1:]
	}
	n := composePrefixLen(line)
	if n == 0 {
		return nil
	}
	i := ansiLen(line)
	end := i
	for end < n && line[end] != ' ' {
		end++
	}
	name := line[i:end]
	j := len(name)
	for j > 0 && isDigit(name[j-1]) {
		j--
	}
	if j > 1 && j < len(name) && (name[j-1] == '-' || name[j-1] == '_') {
		name = name[:j-1]
	}
	return name
}

// headServices reports whether the whole lines of head are written by
// two services at least (serviceOf), each line behind one.
func headServices(head []byte) bool {
	var first []byte
	two := false
	for _, l := range headLines(wholeHead(head), guessLines) {
		s := serviceOf(l)
		if s == nil {
			return false
		}
		if first == nil {
			first = s
		} else if !bytes.Equal(s, first) {
			two = true
		}
	}
	return two
}

// errOneService says a dump read for splitting is one service's.
var errOneService = errors.New("one service")

// splitServices splits a dump into each service's lines, in the order
// the services first write: each line of the dump is in one service's
// stream, where the others' lines are empty lines, so that each line
// keeps its number (a line behind no service's name is the one before
// it's, the first service's before any). errOneService when the dump
// holds one service's lines.
func splitServices(data []byte) (names []string, streams [][]byte, err error) {
	index := map[string]int32{}
	var of []int32 // each line's service
	cur := int32(0)
	for off := 0; off < len(data); {
		line, _ := cutLine(data[off:])
		if s := serviceOf(line); s != nil {
			k, ok := index[string(s)]
			if !ok {
				k = int32(len(names))
				index[string(s)] = k
				names = append(names, string(s))
			}
			cur = k
		}
		of = append(of, cur)
		off += len(line)
	}
	if len(names) < 2 {
		return nil, nil, errOneService
	}
	streams = make([][]byte, len(names))
	for k := range streams {
		i := 0
		for off := 0; off < len(data); i++ {
			line, _ := cutLine(data[off:])
			switch {
			case of[i] == int32(k):
				streams[k] = append(streams[k], line...)
			case line[len(line)-1] == '\n':
				streams[k] = append(streams[k], '\n')
			}
			off += len(line)
		}
	}
	return names, streams, nil
}

// cutLine returns b's first line, with its end, and the rest.
func cutLine(b []byte) ([]byte, []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i+1], b[i+1:]
	}
	return b, nil
}

// readServices reads a dump of several services' lines (headServices)
// as a file of each service's, within fs, which is then not listed. A
// dump larger than maxServicesDump, or of one service's lines after
// all, is read as one file.
func (p *pipeline) readServices(fs *fileState, br *bufio.Reader, in input) error {
	data, err := io.ReadAll(io.LimitReader(br, int64(maxServicesDump)+1))
	if err != nil {
		return readError(err)
	}
	names, streams, err := []string(nil), [][]byte(nil), errOneService
	if len(data) <= maxServicesDump {
		names, streams, err = splitServices(data)
	}
	if err != nil {
		rest := io.MultiReader(bytes.NewReader(data), br)
		return p.readStream(fs, input{r: rest, size: -1, within: in.within, split: true})
	}
	fs.archive = true
	for i, name := range names {
		m := p.newFile(fs.path + memberSep + name)
		if err := p.readStream(m, input{r: bytes.NewReader(streams[i]), size: -1, within: in.within, split: true}); err != nil {
			m.incomplete, m.reason = true, err.Error()
		}
		streams[i] = nil
	}
	return nil
}
