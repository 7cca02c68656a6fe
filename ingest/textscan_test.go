package ingest

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestURIPath holds URIPath against a byte-by-byte cut at the first
// '?' or '#', on URIs of every length around the eight-byte steps, the
// marks anywhere or absent.
func TestURIPath(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	const alphabet = "/v1abc?#=&%"
	for trial := range 20000 {
		u := randomText(rnd, trial%41, alphabet)
		want := u
		for i, c := range u {
			if c == '?' || c == '#' {
				want = u[:i]
				break
			}
		}
		if got := URIPath(u); !bytes.Equal(got, want) || len(got) > 0 && &got[0] != &u[0] {
			t.Fatalf("URIPath(%q) = %q, want %q", u, got, want)
		}
	}
}

// TestURIPathOfURL: an absolute URL's path is the part after its host,
// "/" when it has none; anything else keeps its start.
func TestURIPathOfURL(t *testing.T) {
	for u, want := range map[string]string{
		"https://llm.example.com/v1/chat/completions":     "/v1/chat/completions",
		"https://llm.example.com:8443/v1/x?stream=true#f": "/v1/x",
		"http://[2001:db8::1]:8080/v1/models":             "/v1/models",
		"https://llm.example.com":                         "/",
		"https://llm.example.com?q=/x":                    "/",
		"/v1/chat/completions?x=https://a/b":              "/v1/chat/completions",
		"v1/relative":                                     "v1/relative",
		"not a url://x/y":                                 "not a url://x/y",
		"averyveryveryverylongscheme://h/p":               "averyveryveryverylongscheme://h/p",
		"-":                                               "-",
	} {
		if got := URIPath([]byte(u)); string(got) != want {
			t.Errorf("URIPath(%q) = %q, want %q", u, got, want)
		}
	}
}

func FuzzURIPath(f *testing.F) {
	f.Add([]byte("/v1/chat/completions?x=1#f"))
	f.Add([]byte("https://h:1/v1/x?y#z"))
	f.Fuzz(func(t *testing.T, u []byte) {
		p := URIPath(u)
		if bytes.ContainsAny(p, "?#") {
			t.Fatalf("URIPath(%q) = %q", u, p)
		}
		i := bytes.Index(u, []byte("://"))
		if len(u) == 0 || u[0] == '/' || i <= 0 || i > 16 {
			// No origin: the start of u, cut at its first '?' or '#'.
			if !bytes.HasPrefix(u, p) || len(p) < len(u) && u[len(p)] != '?' && u[len(p)] != '#' {
				t.Fatalf("URIPath(%q) = %q", u, p)
			}
			return
		}
		// An origin cut, or the text kept: a path of u, or "/", or u's start.
		if !(string(p) == "/" || bytes.Contains(u, p)) {
			t.Fatalf("URIPath(%q) = %q", u, p)
		}
	})
}

// TestIndexEither holds indexEither against a byte-by-byte search from
// every start, on strings of every length around the eight-byte steps,
// with the bytes next to the targets' (a borrow's false marks) common.
func TestIndexEither(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	const alphabet = ",\"-#!x\x01\x00\xff"
	for trial := range 20000 {
		s := randomText(rnd, trial%35, alphabet)
		for j := 0; j <= len(s); j++ {
			want := len(s)
			for k := j; k < len(s); k++ {
				if s[k] == ',' || s[k] == '"' {
					want = k
					break
				}
			}
			if got := indexEither(s, j, ',', '"'); got != want {
				t.Fatalf("indexEither(%q, %d) = %d, want %d", s, j, got, want)
			}
		}
	}
}

// randomText returns n bytes drawn from alphabet.
func randomText(rnd *rand.Rand, n int, alphabet string) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rnd.IntN(len(alphabet))]
	}
	return b
}
