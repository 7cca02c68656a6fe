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
