package main

import (
	"fmt"
	"math/rand/v2"

	"loganalyze/gen"
)

// spreadCallers gives the requests n callers instead of the generator's
// own: a caller (app_id caller-NNNNNN and its IP 10.x.y.z) drawn from a
// Zipf distribution of exponent zipf (> 1) over the n, or, when zipf is
// 0, each caller in turn (with n as many as the requests, one each).
// It is how the folding beyond --top is measured on many callers.
func spreadCallers(reqs []gen.Request, n int, zipf float64, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0x63616c6c))
	var z *rand.Zipf
	if zipf > 0 {
		z = rand.NewZipf(r, zipf, 1, uint64(n-1))
	}
	for i := range reqs {
		c := uint64(i % n)
		if z != nil {
			c = z.Uint64()
		}
		reqs[i].AppID = fmt.Sprintf("caller-%06d", c)
		reqs[i].RemoteAddr = fmt.Sprintf("10.%d.%d.%d", c>>16&255, c>>8&255, c&255)
	}
}
