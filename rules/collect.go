package rules

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"

	"loganalyze/aggregate"
	"loganalyze/sketch"
)

// collectEnv is what a collector is made with: the sketches' mapping,
// the --top bound its maps keep, and the rules' settings.
type collectEnv struct {
	m   *sketch.Mapping
	top int
	cfg *Config
	// history is set when the run compares with earlier hours.
	history bool
	// shared, when set, is what the collectors of the workers of one
	// input share (SharedCollectors).
	shared *sharedBounds
}

// sharedBounds are the bounds the collectors of one input's workers
// keep between them: those whose result does not depend on the split,
// shared or not.
type sharedBounds struct {
	retries *retryShare
	// The capped maps' bounds: callers, paths, ceilings' callers.
	callers, paths, ceilings *retryShare
}

// of returns the bound pick chooses of b; nil without shared bounds.
func (b *sharedBounds) of(pick func(*sharedBounds) *retryShare) *retryShare {
	if b == nil {
		return nil
	}
	return pick(b)
}

// limit is how many keys the models' map holds before it is folded to
// top, and the regression pairs' bound: twice top.
func (e collectEnv) limit() int { return 2 * e.top }

// slots gives every rule that gathers data its collector's index in an
// accumulator's Collectors (-1 for none) and returns the collectors'
// names and constructors by index. Rules that name the same collector
// share it. The layout is the same whatever is enabled, so that hour
// files keep one shape; used says which collectors an enabled rule
// needs.
func (c *Config) slots() (slot []int, names []string, makers []func(collectEnv) aggregate.Collector, used []bool) {
	byName := map[string]int{}
	for _, r := range c.rules {
		name, mk := r.collector()
		if mk == nil {
			slot = append(slot, -1)
			continue
		}
		i, ok := byName[name]
		if !ok {
			i = len(makers)
			byName[name] = i
			names, makers, used = append(names, name), append(makers, mk), append(used, false)
		}
		used[i] = used[i] || r.on()
		slot = append(slot, i)
	}
	return slot, names, makers, used
}

// CollectorNames are the names of the collectors, in the order of an
// accumulator's Collectors: what an hour file records of its shape.
func (c *Config) CollectorNames() []string {
	_, names, _, _ := c.slots()
	return names
}

// Collectors returns the constructor of one worker's collectors
// (aggregate.Options.Collectors): one slot per collector, nil where no
// enabled rule needs it. withHistory says whether the run compares with
// earlier hours: without, latency_regression cannot run and gathers
// nothing. Evaluate needs an accumulator made with it from the same
// settings, and with aggregate.Options.TokenURI set to c.TokenURI: the
// accumulator tells token-endpoint calls once for the breakdown and the
// token rule.
func (c *Config) Collectors(m *sketch.Mapping, top int, withHistory bool) func() []aggregate.Collector {
	return c.collectors(m, top, withHistory, false)
}

// HistoryCollectors returns the constructor of the collectors an
// earlier hour is read with, for what the rules compare the window with
// (aggregate.History): latency_regression's pairs when it is enabled,
// every other slot nil, so that its file's other statistics are
// skipped.
func (c *Config) HistoryCollectors(m *sketch.Mapping, top int) func() []aggregate.Collector {
	all := c.collectors(m, top, true, false)
	slot, _, _, _ := c.slots()
	keep := -1
	for i, r := range c.rules {
		if r.id() == RuleRegression && r.on() {
			keep = slot[i]
		}
	}
	return func() []aggregate.Collector {
		out := all()
		for i := range out {
			if i != keep {
				out[i] = nil
			}
		}
		return out
	}
}

// historyPairs returns latency_regression's pairs among an earlier
// hour's collectors (HistoryCollectors), or nil when it has none.
func (c *Config) historyPairs(cols []aggregate.Collector) *regressionPairs {
	slot, _, _, _ := c.slots()
	for i, r := range c.rules {
		if r.id() == RuleRegression && slot[i] >= 0 && slot[i] < len(cols) {
			p, _ := cols[slot[i]].(*regressionPairs)
			return p
		}
	}
	return nil
}

// SharedCollectors is Collectors for the workers of one input: their
// collectors share the bounds that stay exact when shared (the storm
// rule's retry samples keep the smallest hashes of all the workers'
// keys, not each worker its own), so that they hold about the bound
// between them. The hours' collectors, each of its own hour, must not
// share: give them Collectors.
func (c *Config) SharedCollectors(m *sketch.Mapping, top int, withHistory bool) func() []aggregate.Collector {
	return c.collectors(m, top, withHistory, true)
}

func (c *Config) collectors(m *sketch.Mapping, top int, withHistory, shared bool) func() []aggregate.Collector {
	if top < 1 {
		top = 1000
	}
	_, _, makers, used := c.slots()
	env := collectEnv{m: m, top: top, cfg: c, history: withHistory}
	if shared {
		n := cappedKeys(top)
		env.shared = &sharedBounds{retries: newRetryShare(retryKeysFor(top)),
			callers: newRetryShare(n), paths: newRetryShare(n), ceilings: newRetryShare(n)}
	}
	return func() []aggregate.Collector {
		out := make([]aggregate.Collector, len(makers))
		for i, mk := range makers {
			if used[i] {
				out[i] = mk(env)
			}
		}
		return out
	}
}

// keyHash is aggregate's fixed hash, so that the same input keeps the
// same retry samples in every run.
func keyHash[T string | []byte](k T) uint64 { return aggregate.KeyHash(k) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// foldByCount keeps the n heaviest entries of m and returns how many it
// dropped. Ties go to the key of smaller hash (keyHash), then to the
// smaller key: a fixed order like the keys', but one that compares two
// integers where a fold of many one-record keys (an IP per request)
// would compare thousands of strings, a thousand times over.
func foldByCount[V any](m map[string]V, n int, count func(V) int64) int64 {
	if len(m) <= n {
		return 0
	}
	type kc struct {
		k    string
		c    int64
		hash uint64
	}
	all := make([]kc, 0, len(m))
	for k, v := range m {
		all = append(all, kc{k, count(v), keyHash(k)})
	}
	slices.SortFunc(all, func(a, b kc) int {
		if a.c != b.c {
			return cmp.Compare(b.c, a.c)
		}
		if a.hash != b.hash {
			return cmp.Compare(a.hash, b.hash)
		}
		return strings.Compare(a.k, b.k)
	})
	for _, x := range all[n:] {
		delete(m, x.k)
	}
	return int64(len(all) - n)
}

// mergeSketch adds b into a, making a when it is nil and b is not.
func mergeSketch(m *sketch.Mapping, a, b *sketch.Sketch) *sketch.Sketch {
	if b == nil {
		return a
	}
	if a == nil {
		a = sketch.New(m)
	}
	a.Merge(b)
	return a
}

// path returns a URI without its query string.
func path(u []byte) []byte { return aggregate.Path(u) }

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// Total is a non-negative sum kept in fixed point (thousandths of its
// unit), so that it does not depend on the order values are added or
// workers merged. It saturates at the int64 bound (9.2e15 units: 292,000
// years of milliseconds) rather than wrap, whatever the values; a
// negative, NaN or infinite value adds nothing.
type Total int64

// Add adds v.
func (t *Total) Add(v float64) {
	x := math.Round(v * 1000)
	if !(x > 0) {
		return
	}
	if x >= math.MaxInt64 {
		*t = math.MaxInt64
		return
	}
	t.Merge(Total(x))
}

// Merge adds another sum.
func (t *Total) Merge(o Total) {
	if o > math.MaxInt64-*t {
		*t = math.MaxInt64
		return
	}
	*t += o
}

// Float returns the sum.
func (t Total) Float() float64 { return float64(t) / 1000 }
