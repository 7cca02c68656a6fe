package gen

import (
	"bytes"
	"math"
	"reflect"
	"testing"
)

func TestDeterministic(t *testing.T) {
	a := Generate(Config{Seed: 9, N: 3000, Plants: All})
	b := Generate(Config{Seed: 9, N: 3000, Plants: All})
	c := Generate(Config{Seed: 10, N: 3000, Plants: All})
	if len(a) != len(b) {
		t.Fatalf("lengths %d vs %d", len(a), len(b))
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) && !(math.IsNaN(a[i].TTFTms) && math.IsNaN(b[i].TTFTms)) {
			t.Fatalf("request %d differs", i)
		}
	}
	if a[0].RequestID == c[0].RequestID {
		t.Error("another seed gave the same log")
	}
	var x, y bytes.Buffer
	WriteJSONL(&x, a, WriteOptions{BadEvery: 100})
	WriteJSONL(&y, b, WriteOptions{BadEvery: 100})
	if !bytes.Equal(x.Bytes(), y.Bytes()) {
		t.Error("the same requests were written differently")
	}
}

func TestPlants(t *testing.T) {
	reqs := Generate(Config{Seed: 1, N: 3000, Plants: All})
	var cross, nonStream, noKA, storm, burst, token int
	start := reqs[0].Time.Truncate(60e9)
	for i := 1; i < len(reqs); i++ {
		if reqs[i].Time.Before(reqs[i-1].Time) {
			t.Fatal("requests not sorted by time")
		}
	}
	for _, r := range reqs {
		min := int(r.Time.Sub(start).Minutes())
		switch {
		case r.ClientRegion == CrossRegionFrom && r.Region == CrossRegionTo:
			cross++
		case r.Model == NonStreamModel && !r.Stream:
			nonStream++
		case r.AppID == NoKeepaliveApp && r.ConnectionRequests == 1:
			noKA++
		case r.Region == StormRegion && r.Model == StormModel && r.Status == 429 && min >= StormFromMinute && min < StormToMinute:
			storm++
		case r.Region == BurstRegion && r.Model == BurstModel && r.Status >= 500 && min >= BurstFromMinute && min < BurstToMinute:
			burst++
		case r.AppID == TokenMissApp && r.URI == TokenURI:
			token++
		}
	}
	for name, n := range map[string]int{"cross": cross, "non-streaming": nonStream, "keep-alive": noKA, "storm": storm, "burst": burst, "token": token} {
		if n < 20 {
			t.Errorf("%s: only %d planted requests", name, n)
		}
	}
	none := Generate(Config{Seed: 1, N: 3000})
	if len(none) >= len(reqs) {
		t.Errorf("no plants gave %d requests, all plants %d", len(none), len(reqs))
	}
}

// TestSlow: a slowed region or model changes only the upstream time of
// its inference calls (request_time by the same amount, a slowed
// model's first token by the factor); every other request and field is
// the same as without it.
func TestSlow(t *testing.T) {
	base := Generate(Config{Seed: 5, N: 3000, Plants: All})
	for _, s := range []Slow{{Region: "ap-beijing", Factor: 2.5}, {Model: "deepseek-v3", Factor: 2.5}} {
		slowed := Generate(Config{Seed: 5, N: 3000, Plants: All, Slow: s})
		if len(slowed) != len(base) {
			t.Fatalf("%+v: %d requests, %d without it", s, len(slowed), len(base))
		}
		n := 0
		for i := range base {
			a, b := base[i], slowed[i]
			hit := a.Model != "" && (a.Region == s.Region || a.Model == s.Model) && a.Status == 200
			if !hit {
				if !reflect.DeepEqual(a, b) && !(math.IsNaN(a.TTFTms) && math.IsNaN(b.TTFTms)) {
					t.Fatalf("%+v: request %d changed: %+v vs %+v", s, i, a, b)
				}
				continue
			}
			n++
			ua, _ := a.UpstreamTime()
			ub, _ := b.UpstreamTime()
			if math.Abs(ub-ua*s.Factor) > 0.002 {
				t.Fatalf("%+v: request %d: upstream %v, want %v × %v", s, i, ub, ua, s.Factor)
			}
			if math.Abs((b.RequestTime-ub)-(a.RequestTime-ua)) > 0.002 {
				t.Fatalf("%+v: request %d: network %v, was %v", s, i, b.RequestTime-ub, a.RequestTime-ua)
			}
			if a.CompletionTokens != b.CompletionTokens || a.AppID != b.AppID || !a.Time.Equal(b.Time) {
				t.Fatalf("%+v: request %d: traffic changed", s, i)
			}
			switch {
			case !a.Stream:
				if math.Abs(b.TTFTms-b.RequestTime*1000) > 0.1 {
					t.Fatalf("%+v: request %d: non-streaming ttft %v, request_time %v", s, i, b.TTFTms, b.RequestTime)
				}
			case s.Model != "":
				net := (a.RequestTime - ua - a.SSLHandshake) * 1000
				if math.Abs((b.TTFTms-net)-(a.TTFTms-net)*s.Factor) > 3 {
					t.Fatalf("%+v: request %d: ttft %v, was %v", s, i, b.TTFTms, a.TTFTms)
				}
			default:
				if b.TTFTms != a.TTFTms {
					t.Fatalf("%+v: request %d: ttft %v changed from %v for a slowed region", s, i, b.TTFTms, a.TTFTms)
				}
			}
		}
		if n < 100 {
			t.Errorf("%+v: only %d requests slowed", s, n)
		}
	}
}
