package ingest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestTextClientOneSource: a text log whose lines name a user in some
// lines and not others ($remote_user "-") takes its client from one
// source: the user when at least half of the first lines name one (a
// line without it has none), else every line's address.
func TestTextClientOneSource(t *testing.T) {
	line := func(i int, user string) string {
		return fmt.Sprintf(`10.0.0.%d - %s [29/Nov/2026:10:00:%02d +0000] "POST /v1/chat/completions HTTP/1.1" 200 512 "-" "curl/8" "-" 0.5%d`+"\n", i, user, i, i)
	}
	for _, c := range []struct {
		name  string
		users []string
		want  []string
	}{
		{"most name a user", []string{"alice", "-", "bob", "alice"}, []string{"alice", "", "bob", "alice"}},
		{"half", []string{"alice", "-", "-", "bob"}, []string{"alice", "", "", "bob"}},
		{"few name one", []string{"-", "alice", "-", "-"}, []string{"10.0.0.0", "10.0.0.1", "10.0.0.2", "10.0.0.3"}},
		{"none", []string{"-", "-", "-"}, []string{"10.0.0.0", "10.0.0.1", "10.0.0.2"}},
	} {
		var b strings.Builder
		for i, u := range c.users {
			b.WriteString(line(i, u))
		}
		path := filepath.Join(t.TempDir(), "access.log")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		var clients []string
		for _, g := range got {
			clients = append(clients, g.client)
		}
		if res.BadLines() != 0 || strings.Join(clients, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: clients %q (%d bad lines), want %q", c.name, clients, res.BadLines(), c.want)
		}
	}
}
