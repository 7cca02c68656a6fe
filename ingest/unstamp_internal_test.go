package ingest

import (
	"bufio"
	"bytes"
	"io"
	"testing"
)

// FuzzUnstamper: the unstamper's bytes are the input's lines, each
// without the kubectl time it begins with (or, source only, without
// kubectl's or docker compose's source alone), whatever the lines and
// however long. A line longer than the reader's buffer comes in pieces,
// of which only the first, the buffer's worth, may lose a time (the
// command's buffer holds MaxLine; here it is small, so that the fuzzer
// makes such lines).
func FuzzUnstamper(f *testing.F) {
	f.Add([]byte("2026-12-05T10:00:01.123456789Z GET / 200\n2026-12-05T10:00:02Z \n\nplain\n"))
	f.Add([]byte("2026-12-05T10:00:01+08:00 x\r\n2026-12-05T10:00:01Z 2026-12-05T10:00:01Z y"))
	f.Add(bytes.Repeat([]byte("2026-12-05T10:00:01Z "), 8))
	f.Add([]byte("[pod/gw-0/nginx] 2026-12-05T10:00:01Z GET\n[pod/gw-1/nginx] POST\n[pod/a b/c] x\n"))
	f.Add([]byte("litellm-7d9f8b6c5-x2k9p litellm INFO: x\n\x1b[32mgw-0\x1b[0m \x1b[33mnginx\x1b[0m 2026-12-05T10:00:01Z y\nprod gw-0 nginx z\n"))
	f.Add([]byte("litellm-1  | INFO: x\n\x1b[36mweb-1  |\x1b[0m 2026-12-05T10:00:01Z y\nweb-1 |\n\x1b[3"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const size = 64
		for _, c := range []lineCut{{}, {noTime: true}, {stern: 2}, {stern: 3, noTime: true}} {
			var want []byte
			for _, l := range bytes.SplitAfter(data, []byte("\n")) {
				n, _ := kubectlCut(l[:min(len(l), size)], c)
				want = append(want, l[n:]...)
			}
			got, err := io.ReadAll(newUnstamper(bufio.NewReaderSize(bytes.NewReader(data), size), c))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%q (%+v): read %q, want %q", data, c, got, want)
			}
		}
	})
}
