package report

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	"loganalyze/aggregate"
	"loganalyze/sketch"
)

// compareSet fills a set with request times per region: region i gets
// 300·(i+1) values drawn from a lognormal scaled by scale(i).
func compareSet(m *sketch.Mapping, seed uint64, regions int, scale func(int) float64) (*sketch.Set, map[string][]float64) {
	s := sketch.NewSet(m, aggregate.NumMetrics, aggregate.DimNames, 100)
	r := rand.New(rand.NewPCG(seed, 7))
	vals := map[string][]float64{}
	for i := range regions {
		key := "r" + strconv.Itoa(i)
		for range 300 * (i + 1) {
			v := scale(i) * 200 * math.Exp(r.NormFloat64())
			for _, e := range []*sketch.Entry{s.All, s.Dims[aggregate.DimRegion].Entry([]byte(key))} {
				e.Count++
				e.Add(m, aggregate.RequestTime, m.Bin(v))
			}
			vals[key] = append(vals[key], v)
			vals["all"] = append(vals["all"], v)
		}
	}
	for _, v := range vals {
		sort.Float64s(v)
	}
	s.Finish()
	return s, vals
}

func TestCompareAgainstSortedValues(t *testing.T) {
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	before, bv := compareSet(m, 1, 4, func(int) float64 { return 1 })
	// After: one more region (absent before), region 2 three times slower.
	after, av := compareSet(m, 2, 5, func(i int) float64 { return map[bool]float64{true: 3, false: 1}[i == 2] })
	c := compare("baseline", "test", before, after)
	if len(c.Metrics) != 1 || c.Metrics[0].Metric != "request_time" {
		t.Fatalf("metrics %+v, want request_time only", c.Metrics)
	}
	mc := c.Metrics[0]
	exact := func(v []float64, q float64) float64 { return v[int(q*float64(len(v)-1))] }
	check := func(row CompareRow) {
		for i, q := range []float64{0.5, 0.95, 0.99} {
			want := exact(av[row.Key], q) / exact(bv[row.Key], q)
			got := []float64{row.P50Ratio, row.P95Ratio, row.P99Ratio}[i]
			if math.Abs(got-want) > 0.0205*want+0.001 {
				t.Errorf("%s q%v: ratio %v, exact %v", row.Key, q, got, want)
			}
		}
		if row.Before.Count != int64(len(bv[row.Key])) || row.After.Count != int64(len(av[row.Key])) {
			t.Errorf("%s: counts %d, %d", row.Key, row.Before.Count, row.After.Count)
		}
	}
	check(*mc.All)
	if len(mc.By) != 1 || mc.By[0].Dim != "region" {
		t.Fatalf("dimensions %+v, want region only", mc.By)
	}
	var keys []string
	for _, row := range mc.By[0].Rows {
		keys = append(keys, row.Key)
		check(row)
	}
	if got := strings.Join(keys, " "); got != "r3 r2 r1 r0" {
		t.Errorf("rows %s, want the keys both sides have, largest first", got)
	}

	r := &Report{Comparisons: []*Comparison{c}}
	b, err := json.Marshal(r.comparisonsJSON())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Comparison struct {
			Against     string `json:"against"`
			RequestTime struct {
				Region []struct {
					Key      string  `json:"key"`
					P99Ratio float64 `json:"p99_ratio"`
					Before   struct {
						Count int64 `json:"count"`
					} `json:"before"`
				} `json:"region"`
			} `json:"request_time"`
		} `json:"comparison"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Comparison.Against != "baseline" || len(doc.Comparison.RequestTime.Region) != 4 ||
		doc.Comparison.RequestTime.Region[1].Key != "r2" || doc.Comparison.RequestTime.Region[1].P99Ratio != mc.By[0].Rows[1].P99Ratio {
		t.Errorf("JSON comparison %s", b)
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "## Compared with test (ms)") || !strings.Contains(md.String(), "| region | r2 | 900 | 900 |") {
		t.Errorf("Markdown lacks the comparison table:\n%s", md.String())
	}
}
