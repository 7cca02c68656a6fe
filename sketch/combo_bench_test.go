package sketch

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkAddTuple measures what a record's combination costs the set:
// its seven dimension keys given (TupleKey) and the record added to the
// combination (AddTuple), over the keys of a gateway's log: ten regions
// and client regions, a dozen models, a few statuses, 300 callers, two
// stream settings and four paths, about 3,000 combinations met in a
// random order, each record with five metrics of its own.
func BenchmarkAddTuple(b *testing.B) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		b.Fatal(err)
	}
	recs := gatewayRecords(m, rand.New(rand.NewPCG(1, 2)))
	s := NewSet(m, len(gatewayHas), gatewayDims, 1000)
	b.ReportAllocs()
	i := 0
	defer func() { b.ReportMetric(float64(len(s.combos.entries)), "combos") }()
	for b.Loop() {
		rc := &recs[i&(len(recs)-1)]
		i++
		rc.addTo(s)
	}
}

// BenchmarkMergeCombos measures what merging one worker's combinations
// into another's costs, when the workers are done: each set given
// 200,000 of BenchmarkAddTuple's records, drawn apart, their about 3,000
// combinations each mostly counted.
func BenchmarkMergeCombos(b *testing.B) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		b.Fatal(err)
	}
	recs := gatewayRecords(m, rand.New(rand.NewPCG(1, 2)))
	fill := func(seed uint64) *Set {
		s := NewSet(m, len(gatewayHas), gatewayDims, 1000)
		r := rand.New(rand.NewPCG(seed, 3))
		for range 200_000 {
			recs[r.IntN(len(recs))].addTo(s)
		}
		return s
	}
	combos := 0
	for b.Loop() {
		b.StopTimer()
		s, o := fill(1), fill(2)
		b.StartTimer()
		s.MergeCombos(o)
		combos = len(s.combos.entries)
	}
	b.ReportMetric(float64(combos), "combos")
}

// gatewayRec is a record of a gateway's log: its dimension keys and its
// metrics' bins.
type gatewayRec struct {
	keys [7][]byte
	bins [5]Bin
}

// gatewayDims are the set's dimensions; a record's keys are those of
// gatewayDimOf, each of its metrics present.
var (
	gatewayDims  = []string{"region", "model", "status", "client", "client_region", "route", "stream", "uri"}
	gatewayDimOf = [7]int{0, 1, 2, 3, 4, 6, 7}
	gatewayHas   = []bool{true, true, true, true, true}
)

// addTo adds the record to s, as the aggregate does.
func (rc *gatewayRec) addTo(s *Set) {
	s.BeginTuple()
	for d, k := range rc.keys {
		s.TupleKey(gatewayDimOf[d], k)
	}
	s.AddTuple(rc.bins[:], gatewayHas)
}

// gatewayRecords returns 65,536 records over the keys of a gateway's
// log: ten regions and client regions, a dozen models, a few statuses,
// 300 callers, two stream settings and four paths, about 3,000
// combinations, each record with five metrics of its own.
func gatewayRecords(m *Mapping, r *rand.Rand) []gatewayRec {
	regions := []string{"ap-beijing", "ap-shanghai", "ap-guangzhou", "ap-chengdu", "ap-hongkong",
		"ap-singapore", "na-siliconvalley", "na-ashburn", "eu-frankfurt", "ap-tokyo"}
	models := []string{"llama-3-70b-instruct", "qwen2-7b-instruct", "mixtral-8x7b-instruct",
		"deepseek-v3", "hunyuan-turbo", "hunyuan-large", "glm-4-9b-chat", "qwen2.5-72b-instruct",
		"yi-34b-chat", "baichuan2-13b", "llama-3-8b-instruct", "gemma-2-27b"}
	statuses := []string{"200", "200", "200", "200", "429", "500", "502", "504"}
	uris := []string{"/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/v1/auth/token"}
	// Each caller keeps to one model and path and one or two regions.
	const callers = 300
	recs := make([]gatewayRec, 1<<16)
	for i := range recs {
		c := r.IntN(callers)
		reg := regions[(c+r.IntN(2))%len(regions)]
		recs[i].keys = [7][]byte{
			[]byte(reg),
			[]byte(models[(c*7)%len(models)]),
			[]byte(statuses[r.IntN(len(statuses))]),
			[]byte(fmt.Sprintf("app-%03d", c)),
			[]byte(regions[c%len(regions)]),
			[]byte([]string{"true", "false"}[c%2]),
			[]byte(uris[(c/3)%len(uris)]),
		}
		for k := range recs[i].bins {
			recs[i].bins[k] = m.Bin(distributions["lognormal"](r) * float64(k+1))
		}
	}
	return recs
}
