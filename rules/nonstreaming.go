package rules

import (
	"fmt"
	"math"
	"sort"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// assumedStreamTTFTMs is the first-token time assumed for a streaming call
// when the model has no streaming calls to measure: SPEC §1 puts it at
// ~0.2–0.6 s.
const assumedStreamTTFTMs = 500

// nonStreamingRule is non_streaming_large_model (SPEC §5): large models
// called with stream=false often enough.
type nonStreamingRule struct {
	enabled
	MinParamsB    float64 // a large model has at least this many billions
	MinRequests   int64   // non-streaming requests
	MinShare      float64 // of the model's requests
	CritTTFTP95Ms float64
}

func newNonStreaming() rule {
	return &nonStreamingRule{enabled: enabled{true}, MinParamsB: 60, MinRequests: 20, MinShare: 0.10, CritTTFTP95Ms: 2000}
}

func (*nonStreamingRule) id() string { return RuleNonStreaming }

func (r *nonStreamingRule) params() []param {
	return []param{enabledP(&r.Enabled), floatP("min_params_b", &r.MinParamsB), intP("min_requests", &r.MinRequests),
		shareP("min_share", &r.MinShare), floatP("crit_ttft_p95_ms", &r.CritTTFTP95Ms)}
}

func (*nonStreamingRule) collector() (string, func(collectEnv) aggregate.Collector) {
	return RuleNonStreaming, func(e collectEnv) aggregate.Collector {
		return &modelStreams{env: e, models: map[string]*modelStream{}}
	}
}

func (*nonStreamingRule) needs(acc *aggregate.Accumulator) string {
	return absent(acc, ingest.FModel, ingest.FStream)
}

func (r *nonStreamingRule) evaluate(acc *aggregate.Accumulator, col aggregate.Collector, c *Config) ([]Finding, string) {
	return nonStreaming(acc, col.(*modelStreams), r, c), ""
}

// modelStream is the traffic of one model with one stream setting.
type modelStream struct {
	Model  string
	Stream bool
	Count  int64
	TTFT   *sketch.Sketch // ms
	RT     *sketch.Sketch // request_time, ms
}

// modelStreams is non_streaming_large_model's collector: per model and
// stream setting, the first-token and request times; at most twice
// --top of them between folds, the lightest dropped.
type modelStreams struct {
	env     collectEnv
	models  map[string]*modelStream
	key     []byte
	byCombo aggregate.ComboCache[*modelStream]
}

// Add adds a record that has a model and a stream setting, when its
// combination does not bring it (AddCombo).
func (s *modelStreams) Add(r *ingest.Record, v *aggregate.Values) {
	if v.Fed {
		return
	}
	model := r.Text(ingest.FModel)
	stream, ok := r.Bool(ingest.FStream)
	if !ok || model == nil {
		return
	}
	ms := s.byCombo.Find(v.Combo, func() *modelStream { return s.model(model, stream) })
	ms.Count++
	if v.Has[aggregate.TTFT] {
		ms.TTFT.AddBin(v.Bins[aggregate.TTFT])
	}
	if v.Has[aggregate.RequestTime] {
		ms.RT.AddBin(v.Bins[aggregate.RequestTime])
	}
}

// AddCombo adds the records of a combination of keys that has a model
// and a stream setting (aggregate.ComboCollector): a model × stream is a
// projection of the combination, its times the combination's metrics,
// so one merge counts what Add would have for each of its records.
func (s *modelStreams) AddCombo(keys sketch.ComboKeys, e *sketch.Entry) {
	model, stream := keys.Key(aggregate.DimModel), keys.Key(aggregate.DimStream)
	if model == nil || stream == nil {
		return
	}
	ms := s.model(model, string(stream) == string(aggregate.StreamKey(true)))
	ms.Count += e.Count
	e.MergeMetric(aggregate.TTFT, ms.TTFT)
	e.MergeMetric(aggregate.RequestTime, ms.RT)
}

// model returns the times of a model and stream setting, starting them.
func (s *modelStreams) model(model []byte, stream bool) *modelStream {
	s.key = append(append(s.key[:0], model...), 0, boolByte(stream))
	ms := s.models[string(s.key)]
	if ms == nil {
		s.fold()
		ms = &modelStream{Model: string(model), Stream: stream, TTFT: sketch.New(s.env.m), RT: sketch.New(s.env.m)}
		s.models[string(s.key)] = ms
	}
	return ms
}

// Merge adds another worker's models.
func (s *modelStreams) Merge(oc aggregate.Collector) {
	o := oc.(*modelStreams)
	for _, k := range sortedKeys(o.models) {
		om := o.models[k]
		if ms := s.models[k]; ms != nil {
			ms.Count += om.Count
			ms.TTFT.Merge(om.TTFT)
			ms.RT.Merge(om.RT)
		} else {
			s.fold()
			s.models[k] = om
		}
	}
}

// Finish does nothing: the map is bounded as it grows.
func (s *modelStreams) Finish() {}

func (s *modelStreams) fold() {
	if len(s.models) >= s.env.limit() {
		foldByCount(s.models, s.env.top, func(m *modelStream) int64 { return m.Count })
		s.byCombo.Clear()
	}
}

func boolByte(b bool) byte {
	if b {
		return '1'
	}
	return '0'
}

// nonStreaming flags large models called with stream=false often enough.
func nonStreaming(acc *aggregate.Accumulator, mss *modelStreams, cfg *nonStreamingRule, c *Config) []Finding {
	type pair struct{ on, off *modelStream }
	byModel := map[string]*pair{}
	for _, ms := range mss.models {
		p := byModel[ms.Model]
		if p == nil {
			p = &pair{}
			byModel[ms.Model] = p
		}
		if ms.Stream {
			p.on = ms
		} else {
			p.off = ms
		}
	}
	names := make([]string, 0, len(byModel))
	for k := range byModel {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []Finding
	for _, name := range names {
		p := byModel[name]
		if p.off == nil || p.off.Count < cfg.MinRequests {
			continue
		}
		params, source, ok := c.ModelParams(name)
		if !ok || params < cfg.MinParamsB {
			continue
		}
		total := p.off.Count
		if p.on != nil {
			total += p.on.Count
		}
		share := float64(p.off.Count) / float64(total)
		if share < cfg.MinShare {
			continue
		}
		// A non-streaming call's first token is its whole answer; without
		// ttft, request_time measures the same wait.
		metric, first := "ttft", p.off.TTFT
		if first.Count() == 0 {
			metric, first = "request_time", p.off.RT
		}
		f := Finding{
			Rule:     RuleNonStreaming,
			Severity: Warn,
			Key:      Fields{{"model", name}},
			Title:    fmt.Sprintf("Non-streaming calls to the large model %s", name),
		}
		ev := Fields{{"params_b", params}, {"params_from", source}, {"non_streaming_requests", p.off.Count},
			{"requests", total}, {"non_streaming_share", round(share, 3)}}
		// Impact: each non-streaming call waits for its whole answer before
		// the first token; streaming would show one after the model's
		// streaming ttft p50 (or ~0.5 s when none was measured). Lost per
		// call: the non-streaming first-token p50 minus that.
		lost := 0.0
		if first.Count() > 0 {
			p50, p95 := first.Quantile(0.5), first.Quantile(0.95)
			ev = append(ev, Field{metric + "_p50_ms", round(p50, 1)}, Field{metric + "_p95_ms", round(p95, 1)})
			if p95 >= cfg.CritTTFTP95Ms {
				f.Severity = Crit
			}
			stream := float64(assumedStreamTTFTMs)
			if p.on != nil && p.on.TTFT.Count() > 0 {
				stream = p.on.TTFT.Quantile(0.5)
				ev = append(ev, Field{"streaming_ttft_p50_ms", round(stream, 1)})
			}
			lost = p50 - stream
			ev = append(ev, generationSpeed(acc, name, p50)...)
		}
		f.Evidence = ev
		f.Impact = impact(lost, p.off.Count)
		f.Advice = fmt.Sprintf("Send \"stream\": true to %s (%.0fB parameters): %d calls (%.0f %%) wait %s for the whole answer before the first token. "+
			"Where the task allows, use a 7B–14B model or a quantized variant.",
			name, params, p.off.Count, 100*share, seconds(first.Quantile(0.5)/1000))
		out = append(out, f)
	}
	return out
}

// generationSpeed is the evidence of the model's streaming generation
// speed (time_per_output_token, which non-streaming calls never have)
// and the answer length it implies for a non-streaming wait of waitMs:
// a long answer at a normal speed and a slow model are told apart.
// Nothing when the model has no such values (or was folded).
func generationSpeed(acc *aggregate.Accumulator, model string, waitMs float64) Fields {
	if acc == nil {
		return nil
	}
	e := acc.Set.Dims[aggregate.DimModel].Get(model)
	if e == nil {
		return nil
	}
	s := e.Metric(aggregate.TimePerOutputToken)
	if s == nil || s.Count() == 0 {
		return nil
	}
	p50 := s.Quantile(0.5)
	ev := Fields{{"time_per_output_token_p50_ms", round(p50, 2)}}
	if p50 > 0 {
		ev = append(ev, Field{"answer_tokens_est", math.Round(waitMs / p50)})
	}
	return ev
}

// AppendBinary appends the models' traffic, for an hour file.
func (s *modelStreams) AppendBinary(b []byte) []byte {
	e := &encoder{B: b}
	encodeMap(e, s.models, func(_ string, ms *modelStream) {
		e.Str(ms.Model)
		e.Bool(ms.Stream)
		e.Uint(uint64(ms.Count))
		e.Sketch(ms.TTFT)
		e.Sketch(ms.RT)
	})
	return e.B
}

// UnmarshalBinary replaces the models' traffic with what AppendBinary
// wrote.
func (s *modelStreams) UnmarshalBinary(b []byte) error {
	d := newDecoder(s.env.m, b)
	s.models = decodeMap(d, 5, func(string) *modelStream {
		ms := &modelStream{Model: d.Str(), Stream: d.Bool(), Count: d.Count(), TTFT: d.Sketch(), RT: d.Sketch()}
		if d.Err() == nil && (ms.TTFT == nil || ms.RT == nil) {
			d.Fail("a model without its sketches")
		}
		return ms
	})
	return d.Done()
}
