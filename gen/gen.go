// Package gen generates realistic TokenHub access logs for tests,
// benchmarks and demos: seeded (the same config gives the same requests),
// any size, with the problems of SPEC §1 plantable and decoys that look
// like them but must not fire. Writers put the same requests in every
// input format.
package gen

import (
	"math"
	"math/rand/v2"
	"sort"
	"time"
)

// Request is one generated request with every field the formats carry.
// Times are already rounded the way writers print them, so a parser's
// result can be compared exactly.
type Request struct {
	Time               time.Time
	RequestID          string
	AppID              string
	RemoteAddr         string
	ClientRegion       string
	Region             string
	Method             string
	URI                string
	Model              string // empty for non-model calls (token endpoint)
	Stream             bool
	Status             int
	RequestTime        float64   // s, 3 decimals
	UpstreamTimes      []float64 // s, 3 decimals; nil when no upstream answered
	TTFTms             float64   // ms, 1 decimal; NaN when absent
	UpstreamConnect    float64   // s
	SSLHandshake       float64   // s
	TCPRTTus           int       // µs
	Connection         int
	ConnectionRequests int
	RetryAfter         int // s; 0 when absent
	PromptTokens       int
	CompletionTokens   int
	BytesSent          int
	UserAgent          string
}

// UpstreamTime returns the sum of the upstream times and whether there is
// one.
func (r *Request) UpstreamTime() (float64, bool) {
	if len(r.UpstreamTimes) == 0 {
		return 0, false
	}
	s := 0.0
	for _, v := range r.UpstreamTimes {
		s += v
	}
	return s, true
}

// Plants says which problems of SPEC §1 to plant.
type Plants struct {
	CrossRegion    bool // ap-beijing callers to na-siliconvalley, ~180 ms network
	NonStreaming   bool // llama-3-70b-instruct called with stream=false
	NoKeepalive    bool // app-nk: a new TLS connection for every request
	RateLimitStorm bool // 429 storm, ap-shanghai × qwen2-72b-instruct
	ErrorBurst     bool // 502/504 burst, ap-guangzhou × deepseek-v3
	TokenCacheMiss bool // app-tk: a token request before every call
	// Decoys plants look-alikes under every rule's floor.
	Decoys bool
}

// All plants every problem and the decoys.
var All = Plants{true, true, true, true, true, true, true}

// Config configures a generated log.
type Config struct {
	Seed     uint64
	N        int           // requests of background traffic (planted ones add to it)
	Start    time.Time     // default 2026-11-29T10:00:00+08:00
	Duration time.Duration // default 1h
	Plants   Plants
	Slow     Slow // one region's or model's upstream slower (slow.go)
}

// Where planted problems sit, for tests to check findings against.
const (
	CrossRegionFrom  = "ap-beijing"
	CrossRegionTo    = "na-siliconvalley"
	NonStreamModel   = "llama-3-70b-instruct"
	NoKeepaliveApp   = "app-nk"
	StormRegion      = "ap-shanghai"
	StormModel       = "qwen2-72b-instruct"
	BurstRegion      = "ap-guangzhou"
	BurstModel       = "deepseek-v3"
	TokenMissApp     = "app-tk"
	StormFromMinute  = 20 // storm minutes [20, 24)
	StormToMinute    = 24
	BurstFromMinute  = 40 // burst minutes [40, 43)
	BurstToMinute    = 43
	TokenURI         = "/v1/auth/token"
	ChatURI          = "/v1/chat/completions"
	decoyRouteFrom   = "ap-singapore"
	decoyRouteTo     = "ap-guangzhou"
	decoySmallModel  = "qwen2-7b-instruct"
	decoyFewConnsApp = "app-few"
)

var regions = []string{"ap-guangzhou", "ap-shanghai", "ap-beijing", "ap-singapore", "na-siliconvalley"}

type model struct {
	name     string
	medianS  float64 // median generation time, s
	ttftMS   float64 // median first-token time when streaming
	nonStrm  float64 // share of non-streaming calls in background traffic
	weight   int
	tokensPS float64
}

var models = []model{
	{"qwen2-7b-instruct", 2.5, 180, 0.5, 5, 90},
	{"hunyuan-lite", 2.0, 150, 0.4, 4, 100},
	{"minicpm-2b", 1.4, 120, 0.6, 3, 140},
	{"mixtral-8x7b-instruct", 5.5, 320, 0, 3, 60},
	{"qwen2-72b-instruct", 8.0, 520, 0, 4, 35},
	{"llama-3-70b-instruct", 9.0, 560, 0, 3, 32},
	{"deepseek-v3", 7.0, 600, 0, 3, 40},
}

const nClients = 40

type client struct {
	app, region, ip, ua string
}

// Generate returns the requests of a config, sorted by time.
func Generate(c Config) []Request {
	if c.Start.IsZero() {
		c.Start = time.Date(2026, 11, 29, 10, 0, 0, 0, time.FixedZone("+0800", 8*3600))
	}
	if c.Duration == 0 {
		c.Duration = time.Hour
	}
	g := &generator{c: c, rng: rand.New(rand.NewPCG(c.Seed, 0x10ad))}
	g.clients()
	for i := 0; i < c.N; i++ {
		g.background()
	}
	p := c.Plants
	scale := max(1, c.N/3000)
	if p.CrossRegion {
		g.crossRegion(CrossRegionFrom, CrossRegionTo, 60*scale, 0.150)
	}
	if p.NonStreaming {
		// Enough to be well over SPEC's 10 % of the model's calls
		// (background traffic calls it ~12 % of the time, streaming).
		g.nonStreaming(NonStreamModel, 80*scale)
	}
	if p.NoKeepalive {
		g.noKeepalive(NoKeepaliveApp, 60*scale)
	}
	if p.RateLimitStorm {
		g.storm()
	}
	if p.ErrorBurst {
		g.burst()
	}
	if p.TokenCacheMiss {
		g.tokenMiss(TokenMissApp, 40*scale)
	}
	if p.Decoys {
		g.decoys()
	}
	// Sort an index, not the large structs.
	idx := make([]int32, len(g.out))
	for i := range idx {
		idx[i] = int32(i)
	}
	sort.SliceStable(idx, func(i, j int) bool { return g.out[idx[i]].Time.Before(g.out[idx[j]].Time) })
	out := make([]Request, len(g.out))
	for i, k := range idx {
		out[i] = g.out[k]
		out[i].RequestID = hexID(g.c.Seed, i)
	}
	return out
}

type generator struct {
	c   Config
	rng *rand.Rand
	cl  []client
	out []Request
}

func (g *generator) clients() {
	uas := []string{"python-requests/2.31", "tokenhub-sdk-go/1.4.2", "openai-python/1.30.1", "okhttp/4.12.0"}
	for i := 0; i < nClients; i++ {
		reg := regions[i%len(regions)]
		g.cl = append(g.cl, client{
			app:    appName(i + 1),
			region: reg,
			ip:     ipFor(10+i%len(regions), g.rng.IntN(250)+1, g.rng.IntN(250)+1),
			ua:     uas[i%len(uas)],
		})
	}
}

func appName(i int) string {
	return "app-" + string([]byte{byte('0' + i/100%10), byte('0' + i/10%10), byte('0' + i%10)})
}

func ipFor(a, b, c int) string {
	return "10." + itoa(a) + "." + itoa(b) + "." + itoa(c)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}

func hexID(seed uint64, i int) string {
	x := seed*0x9E3779B97F4A7C15 + uint64(i)*0xBF58476D1CE4E5B9
	x ^= x >> 31
	x *= 0x94D049BB133111EB
	x ^= x >> 29
	const digits = "0123456789abcdef"
	var b [16]byte
	for k := range b {
		b[k] = digits[x>>(60-4*k)&0xf]
	}
	return string(b[:])
}

// at returns a uniformly random time in the window, or within [from, to)
// minutes of it.
func (g *generator) at(fromMin, toMin int) time.Time {
	span := time.Duration(toMin-fromMin) * time.Minute
	if toMin <= fromMin {
		span = g.c.Duration
		fromMin = 0
	}
	d := time.Duration(g.rng.Int64N(int64(span)))
	t := g.c.Start.Add(time.Duration(fromMin)*time.Minute + d)
	return t.Truncate(time.Millisecond)
}

func (g *generator) lognormal(median, sigma float64) float64 {
	return median * math.Exp(g.rng.NormFloat64()*sigma)
}

func round(v float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(v*p) / p
}

func (g *generator) pickModel() model {
	total := 0
	for _, m := range models {
		total += m.weight
	}
	k := g.rng.IntN(total)
	for _, m := range models {
		if k < m.weight {
			return m
		}
		k -= m.weight
	}
	return models[0]
}

func modelByName(name string) model {
	for _, m := range models {
		if m.name == name {
			return m
		}
	}
	return models[0]
}

// call makes a successful inference call of cl to region with the given
// network time (s) added to the upstream time.
func (g *generator) call(cl client, region string, m model, stream bool, t time.Time, net float64) Request {
	up := round(g.lognormal(m.medianS, 0.6), 3)
	completion := int(up * m.tokensPS) // the same however slow the upstream
	up = g.c.Slow.upstream(up, region, m.name)
	rt := round(up+net, 3)
	if rt < up {
		rt = up
	}
	ttft := rt * 1000
	if stream {
		ttft = g.c.Slow.firstToken(g.lognormal(m.ttftMS, 0.35), m.name) + net*1000
	}
	return Request{
		Time:               t,
		AppID:              cl.app,
		RemoteAddr:         cl.ip,
		ClientRegion:       cl.region,
		Region:             region,
		Method:             "POST",
		URI:                ChatURI,
		Model:              m.name,
		Stream:             stream,
		Status:             200,
		RequestTime:        rt,
		UpstreamTimes:      []float64{up},
		TTFTms:             round(ttft, 1),
		UpstreamConnect:    0,
		SSLHandshake:       0,
		TCPRTTus:           int(net*1e6/2) + 800 + g.rng.IntN(1200),
		Connection:         1 + g.rng.IntN(60),
		ConnectionRequests: 2 + g.rng.IntN(98),
		PromptTokens:       20 + g.rng.IntN(1500),
		CompletionTokens:   completion,
		BytesSent:          600 + completion*4,
		UserAgent:          cl.ua,
	}
}

func (g *generator) sameRegionNet() float64 {
	return round(0.001+g.rng.Float64()*0.003, 3)
}

func (g *generator) background() {
	cl := g.cl[g.rng.IntN(len(g.cl))]
	m := g.pickModel()
	stream := g.rng.Float64() >= m.nonStrm
	r := g.call(cl, cl.region, m, stream, g.at(0, 0), g.sameRegionNet())
	switch x := g.rng.IntN(1000); {
	case x < 2: // a rare 5xx
		r = g.failed(r, 502)
	case x < 3:
		r = g.failed(r, 504)
	case x < 5: // a rare 429
		r = g.limited(r, 0)
	case x < 8: // the caller gave up
		r.Status = 499
		r.UpstreamTimes = nil
		r.TTFTms = math.NaN()
	}
	// Once per 45 minutes each caller refreshes its token.
	g.out = append(g.out, r)
	if g.rng.IntN(g.c.N/nClients*45/60+1) == 0 {
		g.out = append(g.out, g.token(cl, r.Time.Add(-time.Duration(50+g.rng.IntN(200))*time.Millisecond)))
	}
}

func (g *generator) failed(r Request, status int) Request {
	r.Status = status
	switch status {
	case 504:
		r.UpstreamTimes = []float64{60.000}
		r.RequestTime = 60.002
	default:
		up := round(0.05+g.rng.Float64()*0.3, 3)
		r.UpstreamTimes = []float64{up}
		r.RequestTime = round(up+0.002, 3)
	}
	r.TTFTms = math.NaN()
	r.CompletionTokens = 0
	r.BytesSent = 180
	return r
}

func (g *generator) limited(r Request, retryAfter int) Request {
	r.Status = 429
	r.UpstreamTimes = nil
	r.RequestTime = round(0.002+g.rng.Float64()*0.004, 3)
	r.TTFTms = math.NaN()
	r.CompletionTokens = 0
	r.BytesSent = 160
	r.RetryAfter = retryAfter
	return r
}

func (g *generator) token(cl client, t time.Time) Request {
	rt := round(0.008+g.rng.Float64()*0.02, 3)
	up := round(rt-0.002, 3)
	return Request{
		Time: t.Truncate(time.Millisecond), AppID: cl.app, RemoteAddr: cl.ip,
		ClientRegion: cl.region, Region: cl.region, Method: "POST", URI: TokenURI,
		Status: 200, RequestTime: rt, UpstreamTimes: []float64{up}, TTFTms: math.NaN(),
		TCPRTTus: 900 + g.rng.IntN(900), Connection: 1 + g.rng.IntN(60), ConnectionRequests: 2 + g.rng.IntN(50),
		PromptTokens: 0, CompletionTokens: 0, BytesSent: 420, UserAgent: cl.ua,
	}
}

func (g *generator) crossRegion(from, to string, n int, net float64) {
	for i := 0; i < n; i++ {
		cl := g.cl[g.rng.IntN(len(g.cl))]
		cl.region = from
		m := g.pickModel()
		r := g.call(cl, to, m, true, g.at(0, 0), round(net+g.rng.Float64()*0.06, 3))
		g.out = append(g.out, r)
	}
}

func (g *generator) nonStreaming(name string, n int) {
	m := modelByName(name)
	for i := 0; i < n; i++ {
		cl := g.cl[g.rng.IntN(len(g.cl))]
		g.out = append(g.out, g.call(cl, cl.region, m, false, g.at(0, 0), g.sameRegionNet()))
	}
}

func (g *generator) noKeepalive(app string, n int) {
	cl := client{app: app, region: "ap-guangzhou", ip: "10.20.0.7", ua: "curl/8.5.0"}
	for i := 0; i < n; i++ {
		m := g.pickModel()
		r := g.call(cl, cl.region, m, true, g.at(0, 0), g.sameRegionNet())
		hs := round(0.025+g.rng.Float64()*0.02, 3)
		r.SSLHandshake = hs
		r.RequestTime = round(r.RequestTime+hs, 3)
		r.ConnectionRequests = 1
		r.Connection = 1000 + i
		g.out = append(g.out, r)
	}
}

func (g *generator) storm() {
	m := modelByName(StormModel)
	perMin := max(30, g.c.N/int(g.c.Duration/time.Minute)/6)
	stormApps := []client{g.cl[1], g.cl[6], g.cl[11]} // ap-shanghai callers
	for min := StormFromMinute; min < StormToMinute; min++ {
		for i := 0; i < perMin; i++ {
			cl := stormApps[i%len(stormApps)]
			r := g.call(cl, StormRegion, m, true, g.at(min, min+1), g.sameRegionNet())
			r = g.limited(r, 2)
			g.out = append(g.out, r)
			if cl.app == stormApps[0].app {
				// This caller retries after 0.5 s, before Retry-After.
				retry := r
				retry.Time = r.Time.Add(500 * time.Millisecond)
				if retry.Time.Before(g.c.Start.Add(time.Duration(min+1) * time.Minute)) {
					g.out = append(g.out, retry)
				}
			}
		}
	}
}

func (g *generator) burst() {
	m := modelByName(BurstModel)
	perMin := max(30, g.c.N/int(g.c.Duration/time.Minute)/10)
	for min := BurstFromMinute; min < BurstToMinute; min++ {
		for i := 0; i < perMin; i++ {
			cl := g.cl[i%nClients]
			r := g.call(cl, BurstRegion, m, true, g.at(min, min+1), g.sameRegionNet())
			r.ClientRegion = BurstRegion
			status := 502
			if i%3 == 0 {
				status = 504
			}
			g.out = append(g.out, g.failed(r, status))
		}
	}
}

func (g *generator) tokenMiss(app string, n int) {
	cl := client{app: app, region: "ap-beijing", ip: "10.21.0.9", ua: "python-requests/2.31"}
	for i := 0; i < n; i++ {
		m := g.pickModel()
		r := g.call(cl, cl.region, m, true, g.at(0, 0), g.sameRegionNet())
		g.out = append(g.out, g.token(cl, r.Time.Add(-120*time.Millisecond)), r)
	}
}

// decoys plant look-alikes that stay under every rule's floor.
func (g *generator) decoys() {
	// A cross-region route with too few requests.
	g.crossRegion(decoyRouteFrom, decoyRouteTo, 30, 0.035)
	// A small model called without streaming (background traffic has
	// plenty; add more to be sure).
	g.nonStreaming(decoySmallModel, 40)
	// A caller with a handful of requests, all on new connections.
	cl := client{app: decoyFewConnsApp, region: "ap-singapore", ip: "10.22.0.3", ua: "curl/8.5.0"}
	for i := 0; i < 8; i++ {
		r := g.call(cl, cl.region, g.pickModel(), true, g.at(0, 0), g.sameRegionNet())
		r.ConnectionRequests = 1
		r.SSLHandshake = 0.03
		g.out = append(g.out, r)
	}
	// Scattered single 429s and 5xx, one a minute at most.
	for min := 0; min < int(g.c.Duration/time.Minute); min += 7 {
		base := g.cl[min%nClients]
		r := g.call(base, base.region, g.pickModel(), true, g.at(min, min+1), g.sameRegionNet())
		if min%2 == 0 {
			g.out = append(g.out, g.limited(r, 1))
		} else {
			g.out = append(g.out, g.failed(r, 503))
		}
	}
}
